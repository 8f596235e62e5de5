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
