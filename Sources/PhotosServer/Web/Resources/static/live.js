// The library's change stream (Server-Sent Events of GET /v1/changes?follow=true): each commit
// is announced on `window` as a "library-change" event whose detail is the change-log entry.
// Every page of this photosd shares one stream through a SharedWorker (live-worker.js); where
// there is none, the page opens its own. EventSource reconnects by itself and resumes after the
// last token (Last-Event-ID). A page the back button brings back from the browser's cache
// reconnects and reloads what it shows, since changes went by meanwhile.

let port = null;
let source = null;

function announce(state) {
  const status = document.getElementById("live");
  if (status) status.textContent = state === "open" ? "Live" : state === "reconnecting" ? "Reconnecting…" : "";
  document.documentElement.dataset.live = state;
}

function deliver(data) {
  let entry;
  try {
    entry = JSON.parse(data);
  } catch {
    return;
  }
  window.dispatchEvent(new CustomEvent("library-change", { detail: entry }));
}

function connect() {
  if (typeof SharedWorker === "function") {
    const worker = new SharedWorker("/web/static/live-worker.js", { name: "photosd-changes" });
    port = worker.port;
    port.onmessage = (event) => {
      if (event.data.type === "change") deliver(event.data.data);
      else announce(event.data.type);
    };
    port.start();
  } else {
    source = new EventSource("/v1/changes?follow=true");
    source.onopen = () => announce("open");
    source.onerror = () => announce("reconnecting");
    source.onmessage = (event) => deliver(event.data);
  }
}

function disconnect() {
  port?.postMessage("close");
  port?.close();
  port = null;
  source?.close();
  source = null;
}

export function follow() {
  if (port || source) return;
  connect();
  addEventListener("pagehide", disconnect);
  addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    connect();
    // Whatever changed while the page was away: as if everything had.
    deliver(JSON.stringify({ asset: { updated: ["*"] }, assetCollection: { updated: ["*"] } }));
  });
}
