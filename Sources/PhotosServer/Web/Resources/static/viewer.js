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
