// One change stream for every open page of this photosd: a browser keeps at most six connections
// to one host over HTTP/1.1, and a stream per tab (or per page kept for the back button) would
// take them all. Each page connects a port; the stream opens with the first and closes after the
// last.

const ports = new Set();
let source = null;
let state = "connecting";

function broadcast(message) {
  for (const port of ports) port.postMessage(message);
}

function open() {
  source = new EventSource("/v1/changes?follow=true");
  source.onopen = () => {
    state = "open";
    broadcast({ type: "open" });
  };
  source.onerror = () => {
    state = "reconnecting";
    broadcast({ type: "reconnecting" });
  };
  source.onmessage = (event) => broadcast({ type: "change", data: event.data });
}

onconnect = (event) => {
  const port = event.ports[0];
  ports.add(port);
  port.onmessage = (message) => {
    if (message.data !== "close") return;
    ports.delete(port);
    if (ports.size === 0 && source) {
      source.close();
      source = null;
      state = "connecting";
    }
  };
  port.start();
  if (!source) open();
  port.postMessage({ type: state });
};
