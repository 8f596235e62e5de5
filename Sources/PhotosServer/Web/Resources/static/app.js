// The page's entry: finds what the server rendered (a grid, one asset, the health page), brings it
// to life, and keeps it live with the library's change stream.

import { assetPath, change, get, post } from "./api.js";
import { Grid } from "./grid.js";
import { follow } from "./live.js";
import { identifierPath, touchesGrid } from "./layout.js";
import { Viewer } from "./viewer.js";

/**
 * `action` run at once when asked, never twice at a time: asked again while it runs (a burst of
 * commits while photos are copied in), it runs once more, `pause` ms after it ends.
 */
function coalesce(action, pause) {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await action();
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      setTimeout(run, pause);
    }
  };
  return run;
}

function startGrid(element) {
  let grid;
  const viewer = new Viewer({ count: () => grid.count, asset: (position) => grid.asset(position) });
  grid = new Grid(element, { predicate: element.dataset.predicate, in: element.dataset.in }, (position) =>
    viewer.open(position));
  grid.load();
  const reload = coalesce(async () => {
    await grid.load();
    await viewer.refresh();
  }, 250);
  addEventListener("library-change", (event) => {
    viewer.gone(event.detail.asset?.deleted ?? []);
    if (touchesGrid(event.detail)) reload();
  });
}

async function startAsset(element) {
  const identifier = element.dataset.asset;
  const viewer = new Viewer({ count: () => 1, asset: async () => null }, { standalone: true, host: element });
  try {
    viewer.show(await get(assetPath(identifier)));
  } catch (error) {
    element.textContent = error.message;
    return;
  }
  const refresh = coalesce(() => viewer.refresh(), 250);
  addEventListener("library-change", (event) => {
    viewer.gone(event.detail.asset?.deleted ?? []);
    refresh();
  });
}

function startHealth(element) {
  const wire = () => {
    for (const button of element.querySelectorAll("[data-resume]")) {
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await post(`/v1/hooks/${encodeURIComponent(button.dataset.resume)}/resume`);
          await refresh();
        } catch (error) {
          button.disabled = false;
          button.after(Object.assign(document.createElement("p"), { className: "error", textContent: error.message }));
        }
      });
    }
  };
  const refresh = async () => {
    const response = await fetch("/web/health", { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.querySelector("[data-health]");
    if (fresh) {
      element.replaceChildren(...fresh.childNodes);
      wire();
    }
  };
  wire();
  setInterval(refresh, 3000);
}

function startTrash(element) {
  for (const button of element.querySelectorAll("[data-restore]")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await post("/v1/trash/restore", { identifiers: [button.dataset.restore] });
        button.closest("li").remove();
      } catch (error) {
        button.disabled = false;
        button.after(Object.assign(document.createElement("p"), { className: "error", textContent: error.message }));
      }
    });
  }
}

function startRename(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = form.querySelector("[role=status]");
    const title = form.elements.title.value.trim();
    try {
      await change([{ op: "renameAlbum", album: form.dataset.rename, title }]);
      // The title it got, which is not always the one asked for: a directory's name already taken
      // beside it gets a suffix ("Trip (2)").
      const album = await get(`/v1/albums/${identifierPath(form.dataset.rename)}`);
      const renamed = album.localizedTitle ?? title;
      document.querySelector("h1").textContent = renamed;
      document.title = `${renamed} · photosd`;
      form.elements.title.value = renamed;
      status.textContent = renamed === title ? "Renamed" : `Renamed “${renamed}”: the name “${title}” is taken`;
    } catch (error) {
      status.textContent = error.message;
    }
  });
}

follow();
for (const element of document.querySelectorAll("[data-trash]")) startTrash(element);
for (const form of document.querySelectorAll("form[data-rename]")) startRename(form);
for (const element of document.querySelectorAll("[data-grid]")) startGrid(element);
for (const element of document.querySelectorAll("[data-asset]")) startAsset(element);
for (const element of document.querySelectorAll("[data-health]")) startHealth(element);
