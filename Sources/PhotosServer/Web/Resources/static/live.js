// The library's change stream (Server-Sent Events of GET /v1/changes?follow=true): each commit
// is announced on `window` as a "library-change" event whose detail is the change-log entry.
// EventSource reconnects by itself and resumes after the last token (Last-Event-ID).

let source = null;

export function follow() {
  if (source) return;
  const status = document.getElementById("live");
  source = new EventSource("/v1/changes?follow=true");
  source.onopen = () => {
    if (status) status.textContent = "Live";
    document.documentElement.dataset.live = "open";
  };
  source.onerror = () => {
    if (status) status.textContent = "Reconnecting…";
    document.documentElement.dataset.live = "reconnecting";
  };
  source.onmessage = (event) => {
    let entry;
    try {
      entry = JSON.parse(event.data);
    } catch {
      return;
    }
    window.dispatchEvent(new CustomEvent("library-change", { detail: entry }));
  };
}
