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
