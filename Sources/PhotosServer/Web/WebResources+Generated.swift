// swift-format-ignore-file
// Written by scripts/web-embed from Sources/PhotosServer/Web/Resources: edit those files and run it.

/// The web page's templates and static files, compiled in (``WebRoutes``, ``WebPages``).
enum WebResources {
    /// A file served at `/web/static/NAME`.
    struct File: Sendable {
        let contentType: String
        /// A strong ETag of the content.
        let etag: String
        let body: String
    }

    /// The static files by name.
    static let files: [String: File] = [
        "api.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"c29a92afae128d3697e4\"",
            body: ####"""
// The API as the page uses it: the same routes as any client, with the session's cookie, and the
// CSRF token (from the page's own HTML) on every request that changes something.

import { identifierPath } from "./layout.js";

const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
export const access = document.querySelector('meta[name="access"]')?.content ?? "read-only";
export const canChange = access === "read-write";

/** An error the API answered, with its message. */
export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function send(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (await response.json()).error?.message ?? message;
    } catch {
      // Not the API's error body: the status says enough.
    }
    if (response.status === 401) location.reload();
    throw new APIError(response.status, message);
  }
  return response;
}

/** GET a JSON answer. */
export async function get(path, parameters = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, value);
  }
  const text = query.toString();
  return (await send(text ? `${path}?${text}` : path)).json();
}

/** POST a batch of change requests (`POST /v1/changes`), atomically. */
export async function change(changes) {
  const response = await send("/v1/changes", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ changes }),
  });
  return response.json();
}

/** POST with no body (a hook's resume, the trash's restore). */
export async function post(path, body) {
  const response = await send(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? null : response.json();
}

export function assetPath(identifier) {
  return `/v1/assets/${identifierPath(identifier)}`;
}

export function thumbnailURL(identifier, size = 256) {
  return `${assetPath(identifier)}/thumbnail?size=${size}`;
}

"""####),
        "app.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"75b1e08e33f2b1bbebb2\"",
            body: ####"""
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

"""####),
        "grid.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"3fe6dba018911723205d\"",
            body: ####"""
// A grid of thumbnails over a listing of any size: the day index (GET /v1/days) gives every row's
// place at once, and only the rows near the screen exist in the page; their assets are fetched
// in pages (GET /v1/assets with offset) as they come near. A change in the library reloads the
// index and drops the pages, keeping the place on screen.

import { get, thumbnailURL } from "./api.js";
import { altText, identifierPath, layoutRows, pagesFor, visibleRows } from "./layout.js";

const PAGE = 200;
const HEADING = 36;
const MONTH_HEADING = 56;
const TARGET_CELL = 160;
const OVERSCAN = 800;

export class Grid {
  /** `filter`: the listing's options ({predicate, in}); `onOpen(position)` when a cell is chosen. */
  constructor(element, filter, onOpen) {
    this.element = element;
    this.filter = filter;
    this.onOpen = onOpen;
    this.days = [];
    this.count = 0;
    this.pages = new Map();
    this.shown = new Map();
    this.layout = { rows: [], height: 0 };
    this.frame = 0;
    this.canvas = document.createElement("div");
    this.canvas.className = "grid-canvas";
    element.append(this.canvas);
    this.empty = element.querySelector(".empty");
    this.error = document.createElement("p");
    this.error.className = "error";
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    element.prepend(this.error);
    addEventListener("scroll", () => this.schedule(), { passive: true });
    addEventListener("resize", () => {
      this.relayout();
      this.schedule();
    });
  }

  options(extra = {}) {
    return { sort: "-creationDate", predicate: this.filter.predicate, in: this.filter.in, ...extra };
  }

  /**
   * Reads the day index and draws what is on screen. The rows on screen stay as they are until the
   * new index and the assets they will show have come: a change redraws without a blank.
   */
  async load() {
    const pages = new Map();
    // At the top, the first page needs no index: asked for beside it, not after it.
    if (this.band().top <= 0) this.page(0, pages).catch(() => {});
    let index;
    try {
      index = await get("/v1/days", this.options());
      this.error.hidden = true;
    } catch (error) {
      index = { days: [], count: 0 };
      this.error.textContent = error.message;
      this.error.hidden = false;
    }
    const geometry = this.geometry();
    const layout = this.layoutOf(index.days, geometry);
    const band = this.band();
    const cells = visibleRows(layout.rows, band.top, band.bottom).filter((row) => row.start !== undefined);
    if (cells.length) {
      const last = cells[cells.length - 1];
      const wanted = pagesFor(cells[0].start, last.start + last.count, PAGE);
      await Promise.allSettled(wanted.map((page) => this.page(page, pages)));
    }
    this.days = index.days;
    this.count = index.count;
    this.pages = pages;
    this.adopt(layout, geometry);
    if (this.empty) this.empty.hidden = this.count > 0 || !this.error.hidden;
    for (const counter of document.querySelectorAll("[data-count]")) counter.textContent = String(this.count);
    this.draw();
    this.element.dataset.ready = "true";
    this.element.dispatchEvent(new CustomEvent("grid-loaded", { bubbles: true }));
  }

  /**
   * A column of the years the grid holds, beside it: choosing one scrolls to its first month, so
   * 100,000 photos are a click from any year. Shown when there is more than one year.
   */
  scrubber() {
    this.years?.remove();
    const years = [];
    for (const row of this.layout.rows) {
      if (!row.month) continue;
      const year = row.day?.slice(0, 4) ?? "Undated";
      if (!years.length || years[years.length - 1].year !== year) years.push({ year, top: row.top });
    }
    if (years.length < 2) return;
    this.years = document.createElement("nav");
    this.years.className = "scrubber";
    this.years.setAttribute("aria-label", "Jump to a year");
    for (const { year, top } of years) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = year;
      button.addEventListener("click", () => {
        scrollTo({ top: this.canvas.getBoundingClientRect().top + scrollY + top, behavior: "instant" });
      });
      this.years.append(button);
    }
    this.element.append(this.years);
  }

  /** Columns and the cell's side for the grid's width now. */
  geometry() {
    const width = this.canvas.clientWidth || this.element.clientWidth || innerWidth;
    const columns = Math.max(2, Math.round(width / TARGET_CELL));
    return { columns, cell: Math.floor(width / columns) };
  }

  /** The band of the canvas near the screen, in the canvas's coordinates. */
  band() {
    const top = -this.canvas.getBoundingClientRect().top;
    return { top: top - OVERSCAN, bottom: top + innerHeight + OVERSCAN };
  }

  /** The rows of `days` at `geometry`. */
  layoutOf(days, geometry) {
    return layoutRows(days, geometry.columns, geometry.cell, HEADING, MONTH_HEADING);
  }

  /** Makes `layout` the grid's: its height, the years beside it, and no row of the one before. */
  adopt(layout, geometry) {
    this.columns = geometry.columns;
    this.cell = geometry.cell;
    this.layout = layout;
    this.canvas.style.height = `${layout.height}px`;
    for (const element of this.shown.values()) element.remove();
    this.shown.clear();
    this.scrubber();
  }

  /** Lays the same days out again when the width changes the columns. */
  relayout() {
    const geometry = this.geometry();
    if (geometry.columns === this.columns && geometry.cell === this.cell) return;
    this.adopt(this.layoutOf(this.days, geometry), geometry);
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws the rows near the screen and removes the others. */
  draw() {
    const band = this.band();
    const rows = visibleRows(this.layout.rows, band.top, band.bottom);
    const wanted = new Set(rows.map((row) => row.top));
    for (const [key, element] of this.shown) {
      if (!wanted.has(key)) {
        this.forget(element);
        this.shown.delete(key);
      }
    }
    for (const row of rows) {
      if (this.shown.has(row.top)) continue;
      const element = row.heading !== undefined ? this.heading(row) : this.cells(row);
      element.style.top = `${row.top}px`;
      element.style.height = `${row.height}px`;
      this.canvas.append(element);
      this.shown.set(row.top, element);
    }
  }

  /** Removes a row, and stops its thumbnails' requests: a fast scroll does not queue what it passed. */
  forget(element) {
    for (const image of element.querySelectorAll("img")) {
      if (!image.complete) image.removeAttribute("src");
    }
    element.remove();
  }

  heading(row) {
    const element = document.createElement(row.month ? "h2" : "h3");
    element.className = row.month ? "grid-month" : "grid-day";
    element.textContent = row.heading;
    if (!row.month) element.dataset.day = row.day;
    return element;
  }

  cells(row) {
    const element = document.createElement("div");
    element.className = "grid-row";
    for (let position = row.start; position < row.start + row.count; position++) {
      const cell = document.createElement("a");
      cell.className = "cell";
      cell.style.width = `${this.cell}px`;
      cell.dataset.position = String(position);
      element.append(cell);
    }
    this.fill(element, row.start, row.start + row.count);
    return element;
  }

  /** Puts the assets of positions [start, end) into their cells, fetching their pages first. */
  async fill(element, start, end) {
    for (const page of pagesFor(start, end, PAGE)) {
      const assets = await this.page(page);
      // Scrolled away (or reloaded) while the page came: the row is gone.
      if (!element.isConnected) return;
      for (const cell of element.children) {
        const position = Number(cell.dataset.position);
        const asset = assets[position - page * PAGE];
        if (asset && position >= page * PAGE && position < (page + 1) * PAGE) this.show(cell, asset, position);
      }
    }
  }

  show(cell, asset, position) {
    if (cell.dataset.id === asset.localIdentifier) return;
    cell.dataset.id = asset.localIdentifier;
    cell.href = `/web/assets/${identifierPath(asset.localIdentifier)}`;
    cell.replaceChildren();
    const image = document.createElement("img");
    // Only rows near the screen exist: each image is wanted now, not after layout.
    image.decoding = "async";
    image.alt = altText(asset);
    image.src = thumbnailURL(asset.localIdentifier);
    cell.append(image);
    if (asset.isFavorite) cell.classList.add("favorite");
    if (asset.mediaType === "video") cell.classList.add("video");
    if (asset.mediaSubtypes?.includes("photoLive")) cell.classList.add("live-photo");
    cell.onclick = (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      this.onOpen(position);
    };
  }

  /** The assets of page `page` (positions page*PAGE ..< (page+1)*PAGE), fetched once into `pages`. */
  page(page, pages = this.pages) {
    let pending = pages.get(page);
    if (!pending) {
      pending = get("/v1/assets", this.options({ offset: page * PAGE, pageSize: PAGE })).then(
        (listing) => listing.assets,
        (error) => {
          pages.delete(page);
          throw error;
        },
      );
      pages.set(page, pending);
    }
    return pending;
  }

  /** The asset at `position`, or null past the end. */
  async asset(position) {
    if (position < 0 || position >= this.count) return null;
    const assets = await this.page(Math.floor(position / PAGE));
    return assets[position % PAGE] ?? null;
  }
}

"""####),
        "layout.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"069144e7468eefaaceb0\"",
            body: ####"""
// Pure functions of the page: no DOM, no network. Unit-tested in the browser (Tests/Browser/unit.html).

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
  "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "2024-05-03" → {year, month (1-12), day}, or null for anything else. */
export function parseDay(day) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? "");
  if (!match) return null;
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** A day's heading: "Friday 3 May 2024"; an unknown day (no date) as "Undated". */
export function dayLabel(day) {
  const parts = parseDay(day);
  if (!parts) return "Undated";
  const weekday = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
  return `${WEEKDAYS[weekday]} ${parts.day} ${MONTHS[parts.month - 1]} ${parts.year}`;
}

/** A month's heading: "May 2024". */
export function monthLabel(day) {
  const parts = parseDay(day);
  return parts ? `${MONTHS[parts.month - 1]} ${parts.year}` : "Undated";
}

/**
 * The rows of a grid over a day index: each day a heading row (a month's first day in the order a
 * larger one) and then rows of `columns` cells. `days` is the API's day index
 * ([{day, count, start}]); heights in pixels. Returns {rows, height}; each row has `top`, `height`
 * and either `heading` (text, `month` true for a month's heading) or `start` and `count` (positions
 * in the listing).
 */
export function layoutRows(days, columns, cell, heading, monthHeading) {
  const rows = [];
  let top = 0;
  let month = null;
  columns = Math.max(1, columns);
  for (const entry of days) {
    const thisMonth = monthLabel(entry.day);
    if (thisMonth !== month) {
      month = thisMonth;
      rows.push({ top, height: monthHeading, heading: thisMonth, month: true, day: entry.day });
      top += monthHeading;
    }
    rows.push({ top, height: heading, heading: dayLabel(entry.day), month: false, day: entry.day });
    top += heading;
    for (let offset = 0; offset < entry.count; offset += columns) {
      rows.push({ top, height: cell, start: entry.start + offset, count: Math.min(columns, entry.count - offset) });
      top += cell;
    }
  }
  return { rows, height: top };
}

/** The index of the first row whose bottom is below `y` (binary search over rows sorted by top). */
export function firstRowBelow(rows, y) {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle].top + rows[middle].height <= y) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The rows that meet the band [top, bottom). */
export function visibleRows(rows, top, bottom) {
  const visible = [];
  for (let index = firstRowBelow(rows, top); index < rows.length && rows[index].top < bottom; index++) {
    visible.push(rows[index]);
  }
  return visible;
}

/** The pages (of `size` positions) that hold positions [start, end). */
export function pagesFor(start, end, size) {
  const pages = [];
  for (let page = Math.floor(start / size); page * size < end; page++) pages.push(page);
  return pages;
}

/** An API path for a local identifier: its slashes kept, each segment percent-encoded. */
export function identifierPath(identifier) {
  return identifier.split("/").map(encodeURIComponent).join("/");
}

/** The file name of a path. */
export function basename(path) {
  return (path ?? "").split("/").pop();
}

/** The date as the photo states it: "3 May 2024, 14:05:09 +02:00" from the JSON's ISO 8601. */
export function dateLabel(iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(iso ?? "");
  if (!match) return iso ?? "";
  const offset = match[7] === "Z" ? "UTC" : match[7];
  return `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}, ${match[4]}:${match[5]}:${match[6]} ${offset}`;
}

/** Bytes as people read them: "3.2 MB". */
export function sizeLabel(bytes) {
  if (!(bytes >= 0)) return "";
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A duration in seconds as "1:05" or "1:02:03". */
export function durationLabel(seconds) {
  const whole = Math.round(seconds ?? 0);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** The alt text of a thumbnail: the file's name and the date. */
export function altText(asset) {
  const name = basename(asset.resources?.[0]?.path) || "Photo";
  const day = (asset.creationDate ?? "").slice(0, 10);
  return day ? `${name}, ${dayLabel(day)}` : name;
}

/** Whether a change-log entry touches assets or albums (what a grid shows). */
export function touchesGrid(entry) {
  const parts = [entry.asset, entry.assetCollection];
  return parts.some((part) => part && (part.inserted?.length || part.deleted?.length || part.updated?.length));
}

/**
 * Where the asset shown stands in a grid's listing that may have changed since it was opened (a
 * hidden photo leaves the timeline): `identifiers` are those of positions [start, …). Found, it is
 * {position, listed: true}; gone from the listing, it is {position, listed: false} with `position`
 * that of the asset that followed it (`following`), which the next step shows. Null when neither
 * is there.
 */
export function relocate(identifiers, start, shown, following) {
  const index = identifiers.indexOf(shown);
  if (index >= 0) return { position: start + index, listed: true };
  const after = following ? identifiers.indexOf(following) : -1;
  return after >= 0 ? { position: start + after, listed: false } : null;
}

/** The position a step of `delta` (±1) goes to from a place `relocate` gave. */
export function stepTarget(place, delta) {
  if (place.listed) return place.position + delta;
  return delta > 0 ? place.position : place.position - 1;
}

/**
 * What Delete asks before it deletes `asset`: the files the library placed in its own folder (an
 * upload, an import into the library; `isLibraryOwned`) are erased with the asset, a watched
 * folder's file goes to the Trash and the asset to Recently Deleted.
 */
export function deletionQuestion(asset) {
  const name = basename(asset.resources?.[0]?.path) || "this photo";
  return asset.isLibraryOwned
    ? `Delete ${name} for good? The library placed its file in its own folder: it is erased at once, `
      + "not kept in Recently Deleted."
    : `Move ${name} to the Trash? It stays in Recently Deleted until its days are up.`;
}

/**
 * What the page of an asset says once the library no longer has it: `trashed` is whether Recently
 * Deleted holds it (null when that cannot be asked), `deletedHere` whether this page deleted it.
 */
export function goneMessage(trashed, deletedHere) {
  if (trashed) return "Moved to the Trash";
  if (deletedHere) return "Deleted";
  if (trashed === false) return "No longer in the library: its file was deleted or moved out of the watched folders";
  return "No longer in the library";
}

"""####),
        "live-worker.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"683a1b24ba87f0549077\"",
            body: ####"""
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

"""####),
        "live.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"74d302a3e8348e55caa7\"",
            body: ####"""
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

"""####),
        "style.css": File(
            contentType: "text/css; charset=utf-8", etag: "\"87e6473c63c5678bfc1e\"",
            body: ####"""
/* photosd's page: system fonts, light and dark by the system's preference, usable at phone width. */

:root {
  color-scheme: light dark;
  --background: #fafafa;
  --surface: #ffffff;
  --text: #1b1b1f;
  --muted: #5f6368;
  --accent: #0b57d0;
  --border: #dadce0;
  --error: #b3261e;
  --placeholder: #e8eaed;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Cantarell, sans-serif;
}

@media (prefers-color-scheme: dark) {
  :root {
    --background: #121212;
    --surface: #1e1e1e;
    --text: #e8eaed;
    --muted: #9aa0a6;
    --accent: #8ab4f8;
    --border: #3c4043;
    --error: #f2b8b5;
    --placeholder: #2a2a2a;
  }
}

* { box-sizing: border-box; }
body { margin: 0; background: var(--background); color: var(--text); }
a { color: var(--accent); }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; z-index: 20; background: var(--surface); padding: 8px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }

.bar {
  position: sticky; top: 0; z-index: 5; display: flex; gap: 16px; align-items: center; flex-wrap: wrap;
  padding: 8px 16px; background: var(--surface); border-bottom: 1px solid var(--border);
}
.brand { font-weight: 700; text-decoration: none; color: var(--text); }
.bar nav ul { display: flex; gap: 4px; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
.bar nav a { display: block; padding: 6px 10px; border-radius: 6px; text-decoration: none; color: var(--text); }
.bar nav a[aria-current="page"] { background: var(--placeholder); font-weight: 600; }
.access, .live { color: var(--muted); font-size: 0.85em; }
.access { margin-left: auto; }

main { padding: 12px 16px 48px; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 8px 0 12px; }
.meta { color: var(--muted); }
.error { color: var(--error); }
.crumbs { margin: 0; }

.grid-view { position: relative; }
.scrubber {
  position: fixed; right: 4px; top: 64px; bottom: 8px; z-index: 4; display: flex; flex-direction: column;
  gap: 2px; overflow-y: auto; scrollbar-width: none;
}
.scrubber button { font-size: 0.75em; padding: 2px 6px; opacity: 0.8; }
.scrubber button:hover, .scrubber button:focus-visible { opacity: 1; }
@media (min-width: 701px) { .grid-view { padding-right: 60px; } }
@media (max-width: 700px) { .scrubber { display: none; } }
.grid-canvas { position: relative; width: 100%; }
.grid-canvas > * { position: absolute; left: 0; right: 0; margin: 0; }
.grid-month { font-size: 1.35rem; display: flex; align-items: flex-end; padding-bottom: 6px; }
.grid-day { font-size: 0.95rem; font-weight: 600; color: var(--muted); display: flex; align-items: center; }
.grid-row { display: flex; }
.cell { display: block; height: 100%; padding: 2px; position: relative; }
.cell::before { content: ""; position: absolute; inset: 2px; background: var(--placeholder); }
.cell img { position: relative; width: 100%; height: 100%; object-fit: cover; display: block; }
.cell.favorite::after { content: "♥"; position: absolute; left: 8px; bottom: 4px; color: #fff; text-shadow: 0 0 3px #000; }
.cell.video::after { content: "▶"; position: absolute; right: 8px; bottom: 4px; color: #fff; text-shadow: 0 0 3px #000; }
.empty { color: var(--muted); }

.tree, .tree ul { list-style: none; padding-left: 1.1em; }
.tree > li { margin: 2px 0; }
.tree summary { cursor: pointer; font-weight: 600; }
.tiles { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 6px; }
.count { color: var(--muted); font-size: 0.85em; }

.search { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: flex-end; margin-bottom: 12px; }
.search label { display: flex; flex-direction: column; font-size: 0.85em; color: var(--muted); gap: 2px; }
.search label.check { flex-direction: row; align-items: center; gap: 6px; }
.search details { flex-basis: 100%; }
.search details input { width: min(100%, 40em); }
input, select, button { font: inherit; color: inherit; background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 5px 8px; }
button { cursor: pointer; }

table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--border); vertical-align: top; }
.state-watched, .state-idle, .state-running { color: inherit; }
.state-offline, .state-parked, .state-missing { color: var(--error); }
.hooks, .trash { list-style: none; padding: 0; }
.trash > li { padding: 8px 0; border-bottom: 1px solid var(--border); }
.trash ul { list-style: none; padding-left: 0; margin: 4px 0; }
.rename { margin: 8px 0; display: flex; gap: 8px; align-items: flex-end; flex-wrap: wrap; }
.rename label { display: flex; flex-direction: column; font-size: 0.85em; color: var(--muted); }
.hooks li { padding: 6px 0; border-bottom: 1px solid var(--border); }

body.viewing { overflow: hidden; }
.viewer { position: fixed; inset: 0; z-index: 10; background: var(--background); display: flex; flex-direction: column; }
.viewer.standalone { position: static; min-height: 80vh; }
.viewer[hidden] { display: none; }
.viewer-bar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; padding: 8px 12px; border-bottom: 1px solid var(--border); }
.viewer-title { font-weight: 600; overflow-wrap: anywhere; }
.viewer-status { color: var(--muted); }
.viewer-body { flex: 1; display: flex; min-height: 0; }
.viewer-frame { flex: 1 1 0; margin: 0; position: relative; display: flex; align-items: center; justify-content: center; min-width: 0; overflow: hidden; }
.viewer-media { max-width: 100%; max-height: calc(100vh - 70px); object-fit: contain; cursor: zoom-in; }
.viewer-frame.zoomed { overflow: auto; display: block; }
.viewer-frame.zoomed .viewer-media { max-width: none; max-height: none; cursor: zoom-out; }
.live-movie { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; opacity: 0; pointer-events: none; }
.viewer-frame.playing .live-movie { opacity: 1; }
.live-badge { position: absolute; left: 12px; top: 12px; font-size: 0.75em; }
.viewer-info { flex: 0 0 320px; width: 320px; overflow-y: auto; padding: 12px; border-left: 1px solid var(--border); }
.viewer-info dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 8px; }
.viewer-info dt { color: var(--muted); }
.viewer-info dd { margin: 0; overflow-wrap: anywhere; }
.viewer-info h2 { font-size: 1rem; }

@media (max-width: 700px) {
  main { padding: 8px 6px 32px; }
  .viewer-body { flex-direction: column; overflow-y: auto; }
  .viewer-info { flex: none; width: auto; border-left: none; border-top: 1px solid var(--border); }
  .viewer-media { max-height: 60vh; }
}

.signin { max-width: 40em; margin: 10vh auto; }
.signin pre { background: var(--surface); border: 1px solid var(--border); padding: 12px; border-radius: 6px; }

"""####),
        "viewer.js": File(
            contentType: "text/javascript; charset=utf-8", etag: "\"a8addb529d28dc9eb272\"",
            body: ####"""
// One asset at a time: the picture at screen size (the original on zoom), a video with seeking,
// a Live Photo's movie while pointed at or pressed, what a photographer looks at, and the actions
// the session allows. Arrows step through the grid it was opened from, Esc closes, f favorites.

import { access, assetPath, canChange, change, get, thumbnailURL } from "./api.js";
import {
  basename, dateLabel, deletionQuestion, durationLabel, goneMessage, identifierPath, relocate, sizeLabel, stepTarget,
} from "./layout.js";

/** How far from where it was the viewer looks for its asset in a grid that changed. */
const NEARBY = 100;

const BROWSER_IMAGES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/svg+xml"]);

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

export class Viewer {
  /** `source`: {count(), asset(position)} of the grid; `standalone`: the page of one asset. */
  constructor(source, { standalone = false, host = document.body } = {}) {
    this.source = source;
    this.standalone = standalone;
    this.position = -1;
    this.asset = null;
    this.root = element("div", {
      class: standalone ? "viewer standalone" : "viewer",
      role: standalone ? "region" : "dialog",
      "aria-modal": standalone ? null : "true",
      "aria-label": "Photo",
      hidden: true,
    });
    host.append(this.root);
    this.keys = (event) => this.key(event);
  }

  async open(position) {
    const asset = await this.source.asset(position);
    if (!asset) return;
    this.position = position;
    this.following = null;
    this.show(asset);
    // Where → goes should the asset leave the grid (hidden, deleted) before the next step.
    const following = await this.source.asset(position + 1);
    if (this.asset === asset) this.following = following?.localIdentifier ?? null;
  }

  show(asset) {
    this.asset = asset;
    this.lastFocus ??= document.activeElement;
    this.render();
    this.root.hidden = false;
    if (!this.standalone) document.body.classList.add("viewing");
    document.addEventListener("keydown", this.keys);
    this.root.querySelector(".close, .action")?.focus();
  }

  close() {
    if (this.standalone) return;
    this.stopLoading();
    this.root.hidden = true;
    this.root.replaceChildren();
    document.body.classList.remove("viewing");
    document.removeEventListener("keydown", this.keys);
    this.lastFocus?.focus?.();
    this.lastFocus = null;
  }

  /**
   * Stops the requests for the asset's picture and movie still under way: the library may no
   * longer have it (a 404 the console would show), and a closed viewer wants nothing.
   */
  stopLoading() {
    for (const media of this.root.querySelectorAll("img, video")) {
      if (media.tagName === "IMG" && media.complete) continue;
      media.removeAttribute("src");
      if (media.tagName === "VIDEO") media.load();
    }
  }

  key(event) {
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key === "Escape") this.close();
    else if (event.key === "ArrowRight") this.step(1);
    else if (event.key === "ArrowLeft") this.step(-1);
    else if (event.key === "f" && canChange) this.edit({ isFavorite: !this.asset.isFavorite });
    else return;
    event.preventDefault();
  }

  async step(delta) {
    if (this.standalone || this.position < 0) return;
    const next = stepTarget(await this.place(), delta);
    if (next < 0 || next >= this.source.count()) return;
    await this.open(next);
  }

  /**
   * Where the asset shown is in the grid now: the grid reloads when the library changes, and the
   * asset may have moved or left it (hidden from the timeline). Found by its identifier near
   * where it was; gone, the asset that followed it is next.
   */
  async place() {
    const count = this.source.count();
    const start = Math.max(0, Math.min(this.position, count) - NEARBY);
    const end = Math.min(count, this.position + NEARBY + 1);
    const identifiers = [];
    for (let position = start; position < end; position++) {
      identifiers.push((await this.source.asset(position))?.localIdentifier);
    }
    return relocate(identifiers, start, this.asset.localIdentifier, this.following)
      ?? { position: Math.min(this.position, count), listed: false };
  }

  /**
   * A commit deleted these identifiers: the asset shown among them is closed without asking for
   * it, since the library answers 404 for it now. The page of one asset stays, says what became of
   * it (Recently Deleted says whether it went to the Trash) and offers nothing more to do with it.
   */
  async gone(identifiers) {
    const asset = this.asset;
    if (!asset || this.root.hidden || this.removed || !identifiers.includes(asset.localIdentifier)) return;
    if (!this.standalone) {
      this.close();
      return;
    }
    this.removed = true;
    this.stopLoading();
    for (const control of this.root.querySelectorAll(".action")) control.disabled = true;
    let trashed = null;
    // A limited session may not read Recently Deleted: its deleted assets are in no album.
    if (access !== "limited") {
      try {
        const trash = await get("/v1/trash");
        trashed = trash.assets.some((item) => item.localIdentifier === asset.localIdentifier);
      } catch {
        // Said without knowing where it went.
      }
    }
    this.say(goneMessage(trashed, this.deleting === asset.localIdentifier));
  }

  /** Shows the asset again as the library has it now (after a change). */
  async refresh() {
    if (!this.asset || this.root.hidden || this.removed) return;
    try {
      this.asset = await get(assetPath(this.asset.localIdentifier));
      this.render();
    } catch {
      this.close();
    }
  }

  /** Changes the asset shown; false (and the refusal said) when the library refused. */
  async edit(fields) {
    const asset = this.asset;
    if (this.removed) return false;
    try {
      await change([{ op: "editAsset", asset: asset.localIdentifier, ...fields }]);
      Object.assign(asset, fields);
      if (asset === this.asset) this.render();
      return true;
    } catch (error) {
      this.say(error.message);
      return false;
    }
  }

  say(message) {
    const status = this.root.querySelector(".viewer-status");
    if (status) status.textContent = message;
  }

  render() {
    const asset = this.asset;
    const id = asset.localIdentifier;
    const resource = asset.resources?.[0] ?? {};
    const name = basename(resource.path) || id;
    const media = this.media(asset, name);
    const bar = element(
      "div",
      { class: "viewer-bar" },
      this.standalone ? null : element("button", { type: "button", class: "close", "aria-label": "Close (Esc)", text: "✕" }),
      this.standalone ? null : element("button", { type: "button", class: "previous", "aria-label": "Previous (←)", text: "‹" }),
      this.standalone ? null : element("button", { type: "button", class: "next", "aria-label": "Next (→)", text: "›" }),
      element("span", { class: "viewer-title", text: name }),
      ...this.actions(asset),
      element("span", { class: "viewer-status", role: "status" }),
    );
    const info = this.info(asset, resource);
    this.root.replaceChildren(bar, element("div", { class: "viewer-body" }, media, info));
    this.root.querySelector(".close")?.addEventListener("click", () => this.close());
    this.root.querySelector(".previous")?.addEventListener("click", () => this.step(-1));
    this.root.querySelector(".next")?.addEventListener("click", () => this.step(1));
    this.loadCamera(asset, info);
  }

  media(asset, name) {
    const path = assetPath(asset.localIdentifier);
    if (asset.mediaType === "video") {
      return element("figure", { class: "viewer-frame" }, element("video", {
        class: "viewer-media", controls: true, preload: "metadata", src: `${path}/original`,
        poster: thumbnailURL(asset.localIdentifier, 1024), "aria-label": name,
      }));
    }
    const size = Math.min(4096, Math.ceil((Math.max(innerWidth, innerHeight) * (devicePixelRatio || 1)) / 256) * 256);
    const image = element("img", { class: "viewer-media", alt: name, src: thumbnailURL(asset.localIdentifier, size) });
    const frame = element("figure", { class: "viewer-frame" }, image);
    image.addEventListener("error", () => {
      if (frame.querySelector(".error")) return;
      frame.append(element("p", { class: "error", role: "alert", text: "photosd cannot show this picture: its file could not be decoded (the details list what was read)." }));
    });
    image.addEventListener("click", () => {
      const zoomed = frame.classList.toggle("zoomed");
      const type = asset.resources?.[0]?.mimeType;
      if (zoomed) image.src = BROWSER_IMAGES.has(type) ? `${path}/original` : thumbnailURL(asset.localIdentifier, 4096);
    });
    if (asset.mediaSubtypes?.includes("photoLive")) {
      const movie = element("video", {
        class: "live-movie", muted: true, loop: true, playsinline: true, preload: "none",
        src: `${path}/resources/pairedVideo`, "aria-label": `${name}: Live Photo movie`,
      });
      movie.muted = true;
      const play = () => {
        frame.classList.add("playing");
        movie.play().catch(() => {});
      };
      const stop = () => {
        frame.classList.remove("playing");
        movie.pause();
        movie.currentTime = 0;
      };
      const badge = element("button", { type: "button", class: "live-badge", text: "LIVE", "aria-label": "Play the Live Photo (hold)" });
      for (const target of [image, badge]) {
        target.addEventListener("pointerenter", play);
        target.addEventListener("pointerleave", stop);
      }
      badge.addEventListener("pointerdown", play);
      badge.addEventListener("pointerup", stop);
      frame.append(movie, badge);
    }
    return frame;
  }

  actions(asset) {
    if (!canChange) return [];
    const favorite = element("button", {
      type: "button", class: "action favorite-toggle", "aria-pressed": String(Boolean(asset.isFavorite)),
      text: asset.isFavorite ? "♥ Favorite" : "♡ Favorite", title: "Favorite (f)",
    });
    favorite.addEventListener("click", () => this.edit({ isFavorite: !asset.isFavorite }));
    const hide = element("button", {
      type: "button", class: "action hide-toggle", "aria-pressed": String(Boolean(asset.isHidden)),
      text: asset.isHidden ? "Unhide" : "Hide",
    });
    hide.addEventListener("click", () => this.edit({ isHidden: !asset.isHidden }));
    const rating = element("select", { class: "action rating", "aria-label": "Rating" });
    for (let stars = 0; stars <= 5; stars++) {
      rating.append(element("option", { value: String(stars), selected: (asset.rating ?? 0) === stars, text: stars ? "★".repeat(stars) : "No rating" }));
    }
    rating.addEventListener("change", async () => {
      // Refused, the select shows again the stars the asset has.
      if (!(await this.edit({ rating: Number(rating.value) }))) rating.value = String(asset.rating ?? 0);
    });
    const album = element("select", { class: "action add-to-album", "aria-label": "Add to album" },
      element("option", { value: "", text: "Add to album…" }));
    album.addEventListener("focus", () => this.albums(album), { once: true });
    album.addEventListener("change", async () => {
      if (!album.value) return;
      try {
        await change([{ op: "addToAlbum", album: album.value, assets: [asset.localIdentifier] }]);
        this.say(`Added to ${album.selectedOptions[0].textContent}`);
      } catch (error) {
        this.say(error.message);
      }
      album.value = "";
    });
    const remove = element("button", {
      type: "button", class: "action delete", text: "Delete",
      title: asset.isLibraryOwned ? "Delete for good" : "Move to the Trash",
    });
    remove.addEventListener("click", async () => {
      if (!confirm(deletionQuestion(asset))) return;
      // The change stream may tell of the deletion before the answer comes: either says it.
      this.deleting = asset.localIdentifier;
      try {
        await change([{ op: "deleteAssets", assets: [asset.localIdentifier] }]);
        await this.gone([asset.localIdentifier]);
      } catch (error) {
        this.deleting = null;
        this.say(error.message);
      }
    });
    return [favorite, hide, rating, album, remove];
  }

  /** The user's own albums (not the folders' mirrors), for "Add to album". */
  async albums(select) {
    try {
      const listing = await get("/v1/albums", { type: "album", sort: "title" });
      for (const album of listing.albums) {
        if (album.path || album.subtype !== "albumRegular") continue;
        select.append(element("option", { value: album.localIdentifier, text: album.localizedTitle ?? "Untitled" }));
      }
    } catch (error) {
      this.say(error.message);
    }
  }

  info(asset, resource) {
    const rows = [];
    const row = (label, value, attributes = {}) => {
      if (value === undefined || value === null || value === "") return;
      rows.push(element("dt", { text: label }), element("dd", { ...attributes, text: String(value) }));
    };
    row("Date", dateLabel(asset.creationDate) + (asset.creationDateIsFileTime ? " (the file's time: it states no date)" : ""));
    row("Size", asset.pixelWidth ? `${asset.pixelWidth} × ${asset.pixelHeight}` : "");
    if (asset.mediaType === "video") row("Duration", durationLabel(asset.duration));
    row("File", `${sizeLabel(resource.fileSize)} · ${resource.uniformTypeIdentifier ?? resource.mimeType ?? ""}`);
    if (asset.location) {
      // The place's name, when photosd has a gazetteer, comes with the camera (loadCamera).
      rows.push(element("dt", { text: "Place" }), element("dd", {},
        element("span", { class: "viewer-place-name" }),
        element("span", { class: "meta", text: ` ${asset.location.latitude.toFixed(5)}, ${asset.location.longitude.toFixed(5)}`
          + (asset.location.altitude ? ` · ${Math.round(asset.location.altitude)} m` : "") })));
    }
    row("Rating", asset.rating ? "★".repeat(asset.rating) : "");
    row("Favorite", asset.isFavorite ? "Yes" : "");
    row("Hidden", asset.isHidden ? "Yes" : "");
    row("Path", resource.path, { class: "path" });
    const list = element("dl", { class: "viewer-info-list" }, ...rows);
    const albums = element("ul", { class: "viewer-albums" });
    for (const album of asset.albums ?? []) {
      albums.append(element("li", { "data-album": album.localIdentifier },
        element("a", { href: `/web/albums/${identifierPath(album.localIdentifier)}`, text: album.localizedTitle ?? album.path ?? "Album" })));
    }
    return element("aside", { class: "viewer-info", "aria-label": "Details" },
      list, element("dl", { class: "viewer-camera" }),
      (asset.albums ?? []).length ? element("h2", { text: "In albums" }) : null, albums);
  }

  /** The camera's settings, read from the file on demand (GET /v1/assets/ID/metadata). */
  async loadCamera(asset, info) {
    let metadata;
    try {
      metadata = await get(`${assetPath(asset.localIdentifier)}/metadata`);
    } catch {
      return;
    }
    if (asset !== this.asset) return;
    const camera = metadata.camera ?? {};
    if (metadata.placeNames?.length) {
      info.querySelector(".viewer-place-name").textContent = metadata.placeNames.join(", ");
    }
    for (const [album, names] of Object.entries(metadata.albumPlaceNames ?? {})) {
      const item = info.querySelector(`[data-album="${CSS.escape(album)}"]`);
      if (item) item.append(element("span", { class: "meta", text: ` · ${names.join(", ")}` }));
    }
    const list = info.querySelector(".viewer-camera");
    const add = (label, value) => {
      if (value === undefined || value === null || value === "") return;
      list.append(element("dt", { text: label }), element("dd", { text: String(value) }));
    };
    // "Canon" and "Canon PowerShot S5 IS": the model alone when it names the maker.
    const model = camera.model ?? "";
    add("Camera", camera.make && !model.toLowerCase().startsWith(camera.make.toLowerCase().split(" ")[0])
      ? `${camera.make} ${model}`.trim() : model || camera.make);
    add("Lens", camera.lensModel);
    const exposure = [
      camera.exposureTimeText ? `${camera.exposureTimeText} s` : null,
      camera.fNumber ? `ƒ/${camera.fNumber}` : null,
      camera.isoSpeed ? `ISO ${camera.isoSpeed}` : null,
      camera.exposureBias ? `${camera.exposureBias > 0 ? "+" : ""}${camera.exposureBias} EV` : null,
    ].filter(Boolean).join(" · ");
    const focal = camera.focalLength
      ? `${camera.focalLength} mm` + (camera.focalLengthIn35mm ? ` (${camera.focalLengthIn35mm} mm in 35 mm)` : "")
      : "";
    add("Exposure", exposure);
    add("Focal length", focal);
    add("Flash", camera.flashFired === undefined ? "" : camera.flashFired ? "Fired" : "Did not fire");
    add("Software", camera.software);
  }
}

"""####),
    ]

    /// The Mustache templates by name.
    static let templates: [String: String] = [
        "album": ####"""
<header class="page-head">
<p class="crumbs"><a href="/web/albums">Albums</a></p>
<h1>{{title}}</h1>
<p class="meta"><span data-count>{{count}}</span> items{{#places}} · {{places}}{{/places}}{{#path}} · <code>{{path}}</code>{{/path}}</p>
{{#canChange}}<form class="rename" data-rename="{{id}}"><label>New title <input name="title" value="{{title}}" required></label> <button type="submit">Rename</button> <span class="meta" role="status"></span></form>{{/canChange}}
</header>
<section class="grid-view" data-grid data-in="{{id}}" aria-label="The album's photos and videos">
<p class="empty" hidden>This album is empty.</p>
</section>

"""####,
        "albums": ####"""
<h1>Albums</h1>
{{^limited}}
<section aria-labelledby="smart-head">
<h2 id="smart-head">Smart albums</h2>
<ul class="tiles">
{{#smart}}<li><a href="/web/albums/{{id}}">{{title}}</a> <span class="count">{{count}}</span></li>
{{/smart}}
</ul>
</section>
{{/limited}}
<section aria-labelledby="tree-head">
<h2 id="tree-head">{{#limited}}Your albums{{/limited}}{{^limited}}Folders and albums{{/limited}}</h2>
<ul class="tree">
{{#tree}}{{> node}}{{/tree}}
</ul>
{{^tree}}<p>No albums yet: folders of photos in a watched directory become albums.</p>{{/tree}}
</section>

"""####,
        "asset": ####"""
<h1 class="visually-hidden">Photo</h1>
<section data-asset="{{identifier}}" aria-label="One photo or video"></section>

"""####,
        "health": ####"""
<h1>Health</h1>
<div data-health>
{{#starting}}<p role="status">{{starting}}</p>{{/starting}}
{{^starting}}
{{#crawl}}<p role="status">{{crawl}}</p>{{/crawl}}
<section aria-labelledby="roots-head">
<h2 id="roots-head">Watched folders</h2>
<table>
<thead><tr><th scope="col">Folder</th><th scope="col">State</th><th scope="col">Writes</th></tr></thead>
<tbody>
{{#roots}}<tr><td><code>{{path}}</code></td><td class="state-{{stateClass}}">{{state}}</td><td>{{write}}</td></tr>
{{/roots}}
</tbody>
</table>
<p class="meta">{{ingested}} ingested, {{rejected}} rejected since start · {{watches}} of {{watchBudget}} watches · queue {{queueDepth}}</p>
</section>
{{#thumbnails}}
<section aria-labelledby="thumbs-head">
<h2 id="thumbs-head">Thumbnails made ahead</h2>
<p>Sizes {{sizes}}: {{made}} made, {{kept}} kept, {{failed}} failed; photos at start {{atStart}}.</p>
</section>
{{/thumbnails}}
<section aria-labelledby="hooks-head">
<h2 id="hooks-head">Hooks</h2>
{{^hooks}}<p>No hooks are configured.</p>{{/hooks}}
<ul class="hooks">
{{#hooks}}<li class="hook state-{{state}}"><strong>{{name}}</strong> {{state}} · {{runs}} runs, {{failures}} failures, behind by {{lag}} · last run {{lastRunAt}}
{{#parked}}<p class="error">Parked: {{reason}}</p>{{#canChange}}<button type="button" data-resume="{{name}}">Resume</button>{{/canChange}}{{/parked}}</li>
{{/hooks}}
</ul>
</section>
{{#hasErrors}}
<section aria-labelledby="errors-head">
<h2 id="errors-head">Recent errors</h2>
<ul>{{#lastErrors}}<li>{{.}}</li>{{/lastErrors}}</ul>
</section>
{{/hasErrors}}
{{/starting}}
{{#hasRejected}}
<section aria-labelledby="rejected-head">
<h2 id="rejected-head">Files that could not be read</h2>
<p>{{rejectedSummary}}; each is read again when it changes.</p>
<table class="rejected">
<thead><tr><th scope="col">File</th><th scope="col">Why</th></tr></thead>
<tbody>
{{#rejectedFiles}}<tr><td><code>{{path}}</code></td><td>{{reason}} <span class="meta">({{code}})</span></td></tr>
{{/rejectedFiles}}
</tbody>
</table>
{{#rejectedMore}}<p class="meta">And {{count}} more: <code>photos rejected</code> lists every one.</p>{{/rejectedMore}}
</section>
{{/hasRejected}}
</div>

"""####,
        "layout": ####"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="csrf-token" content="{{csrf}}">
<meta name="access" content="{{access}}">
<title>{{title}} · photosd</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/web/static/style.css">
<script type="module" src="/web/static/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
<a class="brand" href="/web">photosd</a>
<nav aria-label="Sections">
<ul>
{{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>
{{/nav}}
</ul>
</nav>
<span class="access" title="This session's access">{{access}}</span>
<span class="live" id="live" role="status" aria-live="polite"></span>
</header>
<main id="main" tabindex="-1">
{{{content}}}
</main>
</body>
</html>

"""####,
        "node": ####"""
{{#folder}}<li class="folder"><details open><summary title="{{path}}">{{title}}</summary>
<ul>{{#children}}{{> node}}{{/children}}</ul></details></li>
{{/folder}}{{^folder}}<li class="album"><a href="/web/albums/{{id}}" title="{{path}}">{{title}}</a> <span class="count">{{count}}</span></li>
{{/folder}}

"""####,
        "search": ####"""
<h1>Search</h1>
<form class="search" method="get" action="/web/search" role="search">
<label>File name <input type="search" name="name" value="{{name}}" placeholder="IMG_0042"></label>
<label>Camera <input type="search" name="camera" value="{{camera}}" placeholder="Canon, iPhone…"></label>
<label>Type <select name="type">
<option value="any"{{#typeAny}} selected{{/typeAny}}>Any</option>
<option value="image"{{#typeImage}} selected{{/typeImage}}>Photos</option>
<option value="video"{{#typeVideo}} selected{{/typeVideo}}>Videos</option>
</select></label>
<label>From <input type="date" name="from" value="{{from}}"></label>
<label>To <input type="date" name="to" value="{{to}}"></label>
<label class="check"><input type="checkbox" name="favorites" value="1"{{#favorites}} checked{{/favorites}}> Favorites</label>
<details{{#predicate}} open{{/predicate}}><summary>PhotoKit predicate</summary>
<label>Predicate <input type="text" name="predicate" value="{{predicate}}" placeholder='pixelWidth > 4000 AND rating >= 4' spellcheck="false"></label>
</details>
<button type="submit">Search</button>
</form>
{{#errors}}<p class="error" role="alert">{{.}}</p>
{{/errors}}
{{#searched}}
<p class="meta">Predicate: <code>{{query}}</code> · <span data-count></span> found</p>
<section class="grid-view" data-grid data-predicate="{{query}}" aria-label="What the search found">
<p class="empty" hidden>Nothing matches.</p>
</section>
{{/searched}}

"""####,
        "signin": ####"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign in · photosd</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/web/static/style.css">
</head>
<body>
<main id="main" class="signin">
<h1>photosd</h1>
<p>{{reason}}</p>
<p>To look at your library in this browser, run this on the machine photosd runs on:</p>
<pre><code>photos open</code></pre>
<p>It prints a link that works once and opens it here. <code>photos open --access read-write</code>
gives a session that may also change the library.</p>
</main>
</body>
</html>

"""####,
        "timeline": ####"""
<h1 class="visually-hidden">Timeline</h1>
<section class="grid-view" data-grid aria-label="Every photo and video, newest first">
<p class="empty" hidden>No photos yet. Put some in a watched folder and they appear here.</p>
</section>

"""####,
        "trash": ####"""
<h1>Recently Deleted</h1>
<p class="meta">Photos deleted through photosd wait here, their files in the Trash, until they are restored or their days are up.</p>
{{#empty}}<p>Nothing was deleted.</p>{{/empty}}
<ul class="trash" data-trash>
{{#assets}}<li>
<strong>{{name}}</strong> <span class="meta">deleted {{deleted}}</span>
<ul>{{#files}}<li><code>{{path}}</code>{{#trashPath}} <span class="meta">in the Trash as <code>{{trashPath}}</code></span>{{/trashPath}}</li>{{/files}}</ul>
{{#canChange}}<button type="button" data-restore="{{id}}">Restore</button>{{/canChange}}
</li>
{{/assets}}
</ul>

"""####,
    ]
}
