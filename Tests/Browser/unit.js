// Unit tests of the page's pure functions (layout.js), run by the real browser (test_web.py).
// Results: one <li> per test in #results, and body[data-done], body[data-passed], body[data-failed].

import {
  altText, basename, dateLabel, dayLabel, deletionQuestion, durationLabel, firstRowBelow, goneMessage, identifierPath,
  layoutRows, monthLabel, pagesFor, parseDay, relocate, sizeLabel, stepTarget, touchesGrid, visibleRows,
} from "/Sources/PhotosServer/Web/Resources/static/layout.js";

const tests = [];
const test = (name, body) => tests.push({ name, body });
function equal(actual, expected, what = "") {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} expected ${e}, got ${a}`);
}

test("parseDay takes YYYY-MM-DD only", () => {
  equal(parseDay("2024-05-03"), { year: 2024, month: 5, day: 3 });
  equal(parseDay("2024-5-3"), null);
  equal(parseDay(""), null);
  equal(parseDay(undefined), null);
});

test("day and month headings", () => {
  equal(dayLabel("2024-05-03"), "Friday 3 May 2024");
  equal(dayLabel("2000-02-29"), "Tuesday 29 February 2000");
  equal(dayLabel("1970-01-01"), "Thursday 1 January 1970");
  equal(dayLabel(null), "Undated");
  equal(monthLabel("2024-12-31"), "December 2024");
});

test("layoutRows: a month heading, a day heading, then rows of columns", () => {
  const days = [
    { day: "2024-05-03", count: 5, start: 0 },
    { day: "2024-05-01", count: 2, start: 5 },
    { day: "2024-04-30", count: 1, start: 7 },
  ];
  const { rows, height } = layoutRows(days, 3, 100, 30, 50);
  equal(rows.map((row) => row.heading ?? `${row.start}+${row.count}`), [
    "May 2024", "Friday 3 May 2024", "0+3", "3+2", "Wednesday 1 May 2024", "5+2",
    "April 2024", "Tuesday 30 April 2024", "7+1",
  ]);
  equal(height, 50 + 30 + 200 + 30 + 100 + 50 + 30 + 100);
  // Rows are contiguous: each starts where the one before ends.
  for (let index = 1; index < rows.length; index++) {
    equal(rows[index].top, rows[index - 1].top + rows[index - 1].height, `row ${index}`);
  }
  // Every position appears once.
  const positions = rows.filter((row) => row.start !== undefined).flatMap((row) =>
    Array.from({ length: row.count }, (_, offset) => row.start + offset));
  equal(positions, [0, 1, 2, 3, 4, 5, 6, 7]);
});

test("layoutRows with no days, or no columns", () => {
  equal(layoutRows([], 4, 100, 30, 50), { rows: [], height: 0 });
  const { rows } = layoutRows([{ day: "2024-01-01", count: 2, start: 0 }], 0, 10, 1, 1);
  equal(rows.filter((row) => row.start !== undefined).length, 2, "one column at least");
});

test("layoutRows at 100,000 assets stays fast and exact", () => {
  const days = [];
  let start = 0;
  for (let day = 0; day < 3650; day++) {
    const count = (day * 7919) % 55;
    if (!count) continue;
    const date = new Date(Date.UTC(2025, 0, 1) - day * 86400000).toISOString().slice(0, 10);
    days.push({ day: date, count, start });
    start += count;
  }
  const began = performance.now();
  const { rows } = layoutRows(days, 8, 160, 36, 56);
  const spent = performance.now() - began;
  const cells = rows.reduce((sum, row) => sum + (row.count ?? 0), 0);
  equal(cells, start);
  if (spent > 1000) throw new Error(`layout took ${spent} ms`);
});

test("visibleRows and firstRowBelow find the band by binary search", () => {
  const rows = [0, 1, 2, 3, 4].map((index) => ({ top: index * 10, height: 10 }));
  equal(firstRowBelow(rows, 0), 0);
  equal(firstRowBelow(rows, 10), 1);
  equal(firstRowBelow(rows, 15), 1);
  equal(firstRowBelow(rows, 100), 5);
  equal(visibleRows(rows, 15, 31).map((row) => row.top), [10, 20, 30]);
  equal(visibleRows(rows, -50, 0), []);
});

test("pagesFor names each page a band of positions needs", () => {
  equal(pagesFor(0, 1, 200), [0]);
  equal(pagesFor(199, 201, 200), [0, 1]);
  equal(pagesFor(400, 400, 200), []);
  equal(pagesFor(450, 1000, 200), [2, 3, 4]);
});

test("identifiers keep their slashes, their segments are encoded", () => {
  equal(identifierPath("3F2A-1/L0/001"), "3F2A-1/L0/001");
  equal(identifierPath("a b/c?d"), "a%20b/c%3Fd");
});

test("labels: file names, dates with their offsets, sizes, durations", () => {
  equal(basename("/home/me/Pictures/Trip/inn.jpg"), "inn.jpg");
  equal(basename(undefined), "");
  equal(dateLabel("2024-05-03T14:05:09+02:00"), "3 May 2024, 14:05:09 +02:00");
  equal(dateLabel("2024-05-03T14:05:09.250Z"), "3 May 2024, 14:05:09 UTC");
  equal(dateLabel("not a date"), "not a date");
  equal(sizeLabel(999), "999 bytes");
  equal(sizeLabel(3_200_000), "3.2 MB");
  equal(sizeLabel(45_000_000_000), "45 GB");
  equal(durationLabel(65), "1:05");
  equal(durationLabel(3723), "1:02:03");
});

test("alt text: the file's name and its day", () => {
  equal(altText({ resources: [{ path: "/p/IMG_1.HEIC" }], creationDate: "2024-05-03T10:00:00Z" }),
    "IMG_1.HEIC, Friday 3 May 2024");
  equal(altText({ resources: [] }), "Photo");
});

test("a change touches the grid when assets or albums change", () => {
  equal(Boolean(touchesGrid({ asset: { inserted: ["a"], updated: [], deleted: [] } })), true);
  equal(Boolean(touchesGrid({ assetCollection: { updated: [{ localIdentifier: "x" }] } })), true);
  equal(Boolean(touchesGrid({ asset: { inserted: [], updated: [], deleted: [] }, collectionList: { inserted: ["f"] } })), false);
});

test("the viewer finds its asset again in a grid that changed, and steps from there", () => {
  // Still listed, one place later (a photo came before it): the steps are from its place now.
  const moved = relocate(["a", "x", "b", "c"], 10, "b", "c");
  equal(moved, { position: 12, listed: true });
  equal([stepTarget(moved, 1), stepTarget(moved, -1)], [13, 11]);
  // Hidden, it left the timeline: → shows the photo that followed it, ← the one before it.
  const left = relocate(["a", "c", "d"], 10, "b", "c");
  equal(left, { position: 11, listed: false });
  equal([stepTarget(left, 1), stepTarget(left, -1)], [11, 10]);
  // Neither it nor the photo after it is near: the caller decides.
  equal(relocate(["a", "d"], 0, "b", "c"), null);
  equal(relocate(["a", "d"], 0, "b", null), null);
});

test("Delete says what becomes of the photo: the Trash, or erased when the library placed its file", () => {
  const folder = { resources: [{ path: "/home/me/Pictures/Trip/inn.jpg" }], isLibraryOwned: false };
  const imported = { resources: [{ path: "/home/me/.local/share/photos/Imports/2024/holiday.jpg" }], isLibraryOwned: true };
  equal(deletionQuestion(folder), "Move inn.jpg to the Trash? It stays in Recently Deleted until its days are up.");
  equal(deletionQuestion(imported), "Delete holiday.jpg for good? The library placed its file in its own folder: "
    + "it is erased at once, not kept in Recently Deleted.");
  if (deletionQuestion(imported).includes("Trash")) throw new Error("an imported photo goes to no Trash");
});

test("a photo's page says where the photo went as Recently Deleted tells it", () => {
  equal(goneMessage(true, true), "Moved to the Trash");
  equal(goneMessage(true, false), "Moved to the Trash");
  equal(goneMessage(false, true), "Deleted");
  equal(goneMessage(false, false), "No longer in the library: its file was deleted or moved out of the watched folders");
  equal(goneMessage(null, false), "No longer in the library");
});

let passed = 0;
let failed = 0;
const list = document.getElementById("results");
for (const { name, body } of tests) {
  const item = document.createElement("li");
  try {
    body();
    passed++;
    item.textContent = `ok: ${name}`;
  } catch (error) {
    failed++;
    item.textContent = `FAILED: ${name}: ${error.message}`;
    item.className = "failed";
  }
  list.append(item);
}
document.body.dataset.passed = String(passed);
document.body.dataset.failed = String(failed);
document.body.dataset.done = "true";
