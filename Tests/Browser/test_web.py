#!/usr/bin/env python3
"""The web page in a real browser: Debian's chromium, driven through chromedriver (selenium),
against a real photosd serving a copy of the shared corpus.

    python3 Tests/Browser/test_web.py [--bin .build/debug] [--artifacts DIR]

Logs in through `photos open`'s one-time URL; checks the timeline is grouped by day as the
library says, an asset's metadata, search by camera, favoriting (found again in Favorites),
deleting (to the Trash, and an upload erased for good) with what each dialog and page says, a
photo's page after its file is moved away, a refused rating, renaming an album to a taken name,
→ after hiding a photo, a photo copied into a watched folder appearing without a reload (and
going when deleted), that a
read-only session has no favorite button and the API refuses it, that no request leaves
loopback and the page logs no error (no CSP violation); runs the page's JavaScript unit tests
(Tests/Browser/unit.html) in the same browser; and keeps a screenshot of each page in
--artifacts (default: a temporary directory, printed). Skips, saying so loudly, where the corpus
or the browser is missing.
"""

import argparse
import datetime
import functools
import http.server
import json
import shutil
import sys
import threading
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

OPTIONS = argparse.Namespace(bin=harness.ROOT / ".build" / "debug", artifacts=None)
WAIT = 30  # seconds any one thing may take on a loaded 2-core machine: not a measure of speed


def day_label(day: str) -> str:
    date = datetime.date.fromisoformat(day)
    return f"{date.strftime('%A')} {date.day} {date.strftime('%B')} {date.year}"


class WebPageTests(unittest.TestCase):
    daemon: harness.Daemon
    driver = None

    @classmethod
    def setUpClass(cls):
        if not harness.TRUTH.exists():
            raise unittest.SkipTest(f"SKIPPED LOUDLY: no corpus at {harness.CORPUS}")
        if not (shutil.which("chromium") and shutil.which("chromedriver")):
            raise unittest.SkipTest("SKIPPED LOUDLY: chromium and chromedriver are not installed (scripts/setup)")
        cls.artifacts = Path(OPTIONS.artifacts or (harness.tempfile.mkdtemp(prefix="photos-web-shots-")))
        cls.artifacts.mkdir(parents=True, exist_ok=True)
        print(f"screenshots in {cls.artifacts}", file=sys.stderr)
        # Changes reach the disk (deleting to the Trash, renaming a folder): the photos are copies.
        cls.daemon = harness.Daemon(OPTIONS.bin, write="files")
        cls.driver = harness.browser()
        cls.urls = []

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()
        if getattr(cls, "daemon", None):
            cls.daemon.stop()

    # Helpers

    def wait(self, condition, message, seconds=WAIT):
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            # An element the page redrew between finding and reading it is read again at the next poll.
            return WebDriverWait(self.driver, seconds, poll_frequency=0.05,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda driver: condition())
        except Exception as error:
            self.shot("failure")
            message = f"{message} ({type(error).__name__})"
            recent = self.driver.execute_script(
                "return performance.getEntriesByType('resource').slice(-12)"
                ".map(e => `${e.name} ${Math.round(e.duration)} ms`).join('\\n')")
            raise AssertionError(f"{message}; the page's last requests:\n{recent}\n"
                                 f"photosd's log:\n{self.daemon.log_text()[-1500:]}")

    def shot(self, name):
        self.driver.save_screenshot(str(self.artifacts / f"{name}.png"))

    def css(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def login(self, access="read-only"):
        self.driver.get(self.daemon.login_url(access))
        self.wait(lambda: self.driver.current_url == self.daemon.origin + "/web", "the login lands on the timeline")
        self.wait_grid()

    def wait_grid(self):
        self.wait(lambda: self.driver.execute_script(
            "const g = document.querySelector('[data-grid]'); return g && g.dataset.ready === 'true'"),
            "the grid loads its day index")

    def cells(self):
        # Read in one step: a grid that redraws meanwhile would leave elements stale.
        return self.driver.execute_script(
            "return [...document.querySelectorAll('.cell[data-id]')].map(cell => cell.dataset.id)")

    def collect_urls(self):
        self.urls.extend(harness.requested_urls(self.driver))
        for entry in self.driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.fail(f"the page logged an error: {entry['message']}")

    def tearDown(self):
        if self.driver:
            self.collect_urls()

    # Tests, in order (unittest sorts by name)

    def test_1_login_shows_the_timeline_grouped_by_day(self):
        self.login()
        self.assertEqual(self.driver.get_cookies()[0]["httpOnly"], True)
        visible = [asset for asset in self.daemon.assets() if not asset.get("isHidden")]
        self.assertGreater(len(visible), 50)
        newest = max(visible, key=lambda asset: datetime.datetime.fromisoformat(asset["creationDate"]))
        self.wait(lambda: self.css(".grid-day"), "day headings")
        # In one step, top to bottom: a grid that redraws meanwhile would leave elements stale.
        headings = self.driver.execute_script("""
            return [...document.querySelectorAll('.grid-day')].sort((a, b) => a.offsetTop - b.offsetTop)
              .map(heading => [heading.textContent, heading.dataset.day])""")
        self.assertEqual(headings[0][0], day_label(newest["creationDate"][:10]))
        days = [day for _, day in headings]
        self.assertEqual(days, sorted(days, reverse=True), "newest day first")
        self.assertTrue(self.css(".grid-month"), "a month heading")
        self.wait(lambda: len(self.cells()) >= 8, "thumbnails on the first screen")
        self.wait(lambda: self.driver.execute_script(
            "return [...document.querySelectorAll('.cell img')].slice(0, 8).every(i => i.complete && i.naturalWidth > 0)"),
            "the first thumbnails are drawn")
        self.shot("timeline")
        # The years beside the grid: the oldest is a click away.
        # Read and checked in the page, in one step each: the grid redraws as it scrolls.
        years = self.driver.execute_script(
            "return [...document.querySelectorAll('.scrubber button')].map(button => button.textContent)")
        self.assertEqual(years, sorted(years, reverse=True))
        self.assertGreater(len(years), 5)
        oldest = years[-1]
        self.driver.execute_script("[...document.querySelectorAll('.scrubber button')].pop().click()")
        self.wait(lambda: self.driver.execute_script("""
            return [...document.querySelectorAll('.grid-month')].some(heading => {
              const top = heading.getBoundingClientRect().top;
              return heading.textContent.endsWith(arguments[0]) && top >= 0 && top < innerHeight;
            })""", oldest), f"{oldest}'s first month on screen")
        self.shot("timeline-oldest-year")

    def test_2_an_asset_shows_its_metadata(self):
        self.login()
        self.wait(lambda: self.cells(), "a cell")
        identifier = self.cells()[0]
        self.css(".cell[data-id]")[0].click()
        self.wait(lambda: self.css(".viewer:not([hidden]) .viewer-info-list"), "the viewer opens")
        status, asset = self.daemon.api("GET", "/v1/assets/" + identifier)
        self.assertEqual(status, 200)
        text = self.css(".viewer-info-list")[0].text
        self.assertIn(asset["resources"][0]["path"], text)
        self.assertIn(f"{asset['pixelWidth']} × {asset['pixelHeight']}", text)
        self.shot("asset-in-grid")
        # Arrows step; Esc closes.
        from selenium.webdriver.common.keys import Keys
        title = self.css(".viewer-title")[0].text
        self.css("body")[0].send_keys(Keys.ARROW_RIGHT)
        self.wait(lambda: self.css(".viewer-title") and self.css(".viewer-title")[0].text != title, "→ shows the next")
        self.css("body")[0].send_keys(Keys.ESCAPE)
        self.wait(lambda: not self.css(".viewer:not([hidden])"), "Esc closes the viewer")

    def test_2b_a_photos_own_page_shows_its_camera_and_exposure(self):
        self.login()
        truth = {entry["path"]: entry for entry in harness.json.loads(harness.TRUTH.read_text())}
        # A Canon photo whose file states its exposure, and whose picture photosd can decode.
        asset = next(asset for asset in self.daemon.assets('make CONTAINS[c] "canon" AND mediaType == image')
                     if not asset.get("isHidden")
                     and "exposureTimeText" in self.daemon.api("GET", f"/v1/assets/{asset['localIdentifier']}/metadata")[1]
                     .get("camera", {})
                     and self.daemon.api("GET", f"/v1/assets/{asset['localIdentifier']}/thumbnail?size=64")[0] == 200)
        relative = str(Path(asset["resources"][0]["path"]).relative_to(self.daemon.pictures))
        self.driver.get(self.daemon.origin + "/web/assets/" + asset["localIdentifier"])
        self.wait(lambda: self.css(".viewer-camera") and "Exposure" in self.css(".viewer-camera")[0].text,
                  "the camera's rows")
        camera = self.css(".viewer-camera")[0].text
        self.assertIn(truth[relative]["model"], camera)
        self.assertIn("Exposure", camera)
        self.shot("asset")

    def test_2c_a_live_photo_plays_on_hover_and_a_video_seeks(self):
        from selenium.webdriver.common.action_chains import ActionChains
        self.login()
        live = next(asset for asset in self.daemon.assets() if "photoLive" in asset.get("mediaSubtypes", []))
        self.driver.get(self.daemon.origin + "/web/assets/" + live["localIdentifier"])
        self.wait(lambda: self.css(".viewer-frame .live-movie"), "the Live Photo's movie")
        self.assertTrue(self.css(".live-movie")[0].get_attribute("src").endswith("/resources/pairedVideo"))
        ActionChains(self.driver).move_to_element(self.css(".viewer-frame img")[0]).perform()
        self.wait(lambda: self.css(".viewer-frame.playing"), "the movie plays while pointed at")
        self.wait(lambda: self.driver.execute_script(
            "const m = document.querySelector('.live-movie'); return m.currentTime > 0 || m.readyState >= 2"),
            "the movie has frames")
        video = next(asset for asset in self.daemon.assets("mediaType == video")
                     if (asset.get("duration") or 0) > 4 and asset["resources"][0]["mimeType"] in ("video/mp4", "video/webm"))
        self.driver.get(self.daemon.origin + "/web/assets/" + video["localIdentifier"])
        self.wait(lambda: self.css("video.viewer-media"), "the video")
        # Seeking past what was read needs a Range request the server honours.
        seeked = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const video = document.querySelector('video.viewer-media');
            const seek = () => { video.addEventListener('seeked', () => done(video.currentTime), {once: true});
                                 video.currentTime = video.duration - 1; };
            if (video.readyState >= 1) seek(); else video.addEventListener('loadedmetadata', seek, {once: true});
            setTimeout(() => done(-1), 20000);""")
        self.assertGreater(seeked, 3)

    def test_3_search_by_camera(self):
        self.login()
        makes = [asset for asset in harness.json.loads(harness.TRUTH.read_text())
                 if asset.get("expect") == "ingest" and (asset.get("make") or "").lower().startswith("canon")]
        self.assertTrue(makes, "the corpus has Canon photos")
        expected = self.daemon.assets('make CONTAINS[c] "canon" OR model CONTAINS[c] "canon"')
        expected = [asset for asset in expected if not asset.get("isHidden")]
        self.driver.get(self.daemon.origin + "/web/search?camera=canon")
        self.wait_grid()
        self.wait(lambda: self.css("[data-count]")[0].text == str(len(expected)), f"{len(expected)} found")
        self.wait(lambda: set(self.cells()) <= {asset["localIdentifier"] for asset in expected} and self.cells(),
                  "only Canon's photos are shown")
        self.assertIn("canon", self.driver.current_url, "the URL keeps the query")
        self.shot("search")

    def test_4_favorite_and_find_it_in_favorites(self):
        from selenium.webdriver.common.keys import Keys
        self.login("read-write")
        self.wait(lambda: self.cells(), "a cell")
        identifier = next(i for i in self.cells()
                          if not self.daemon.api("GET", "/v1/assets/" + i)[1]["isFavorite"])
        self.css(f'.cell[data-id="{identifier}"]')[0].click()
        self.wait(lambda: self.css(".favorite-toggle"), "a favorite button for a read-write session")
        self.css("body")[0].send_keys("f")
        self.wait(lambda: self.css('.favorite-toggle[aria-pressed="true"]'), "f favorites the photo")
        self.wait(lambda: self.daemon.api("GET", "/v1/assets/" + identifier)[1]["isFavorite"], "the library has it")
        self.css("body")[0].send_keys(Keys.ESCAPE)
        self.driver.get(self.daemon.origin + "/web/albums")
        self.shot("albums")
        from selenium.webdriver.common.by import By
        self.driver.find_element(By.LINK_TEXT, "Favorites").click()
        self.wait_grid()
        self.wait(lambda: identifier in self.cells(), "the photo is in Favorites")
        self.shot("favorites")

    def test_4b_delete_to_the_trash_and_restore(self):
        self.login("read-write")
        self.wait(lambda: self.cells(), "a cell")
        identifier = self.cells()[-1]
        path = Path(self.daemon.api("GET", "/v1/assets/" + identifier)[1]["resources"][0]["path"])
        self.css(f'.cell[data-id="{identifier}"]')[0].click()
        self.wait(lambda: self.css(".viewer:not([hidden]) .delete"), "a Delete button")
        self.css(".viewer .delete")[0].click()
        alert = self.driver.switch_to.alert
        self.assertEqual(alert.text, f"Move {path.name} to the Trash? It stays in Recently Deleted until its days are up.")
        alert.accept()
        self.wait(lambda: not path.exists(), f"{path} goes to the Trash")
        self.wait(lambda: identifier not in self.cells(), "the photo leaves the timeline")
        self.driver.get(self.daemon.origin + "/web/trash")
        self.wait(lambda: self.css(f'[data-restore="{identifier}"]'), "the photo is in Recently Deleted")
        trashed = self.css("[data-trash]")[0].text
        self.assertIn(str(path), trashed)
        self.assertIn("Trash", trashed)
        self.shot("trash")
        self.css(f'[data-restore="{identifier}"]')[0].click()
        self.wait(lambda: path.exists(), f"{path} is restored")
        self.wait(lambda: self.daemon.api("GET", "/v1/assets/" + identifier)[0] == 200, "the same asset, again")

    def test_4b2_a_photo_deleted_elsewhere_closes_its_viewer_without_asking_for_it(self):
        # The change stream says it is deleted: asking the API for it again would be a 404 in the console.
        self.login()
        self.wait(lambda: len(self.cells()) > 1, "cells")
        shown, standalone = self.cells()[0], self.cells()[1]
        self.css(f'.cell[data-id="{shown}"]')[0].click()
        self.wait(lambda: self.css(".viewer:not([hidden]) .viewer-title"), "the viewer opens")
        try:
            self.delete_elsewhere(shown)
            self.wait(lambda: not self.css(".viewer:not([hidden])"), "the viewer closes")
            self.wait(lambda: shown not in self.cells(), "the photo leaves the timeline")
            self.driver.get(self.daemon.origin + "/web/assets/" + standalone)
            self.wait(lambda: self.css(".viewer.standalone .viewer-title"), "the photo's own page")
            self.delete_elsewhere(standalone)
            self.wait(lambda: self.css(".viewer-status")[0].text == "Moved to the Trash", "its page says where it went")
        finally:
            status, _ = self.daemon.api("POST", "/v1/trash/restore",
                                        harness.json.dumps({"identifiers": [shown, standalone]}).encode())
            self.assertIn(status, (200, 204))

    def test_4b3_deleting_a_photo_the_library_imported_says_it_is_erased_not_trashed(self):
        # An upload's file is the library's own (its import folder): deleting it erases it, and
        # nothing waits in Recently Deleted to be restored.
        self.login("read-write")
        source = harness.CORPUS / "Downloads" / "no-exif-data.jpg"
        # Bytes after the JPEG's end: a file of its own, not a copy of the corpus's.
        identifier = self.upload("holiday.jpg", source.read_bytes() + b"page test " + str(time.time()).encode())
        status, asset = self.daemon.api("GET", "/v1/assets/" + identifier)
        self.assertEqual(status, 200, asset)
        path = Path(asset["resources"][0]["path"])
        self.assertTrue(asset["isLibraryOwned"])
        self.driver.get(self.daemon.origin + "/web/assets/" + identifier)
        self.wait(lambda: self.css(".viewer.standalone .delete"), "a Delete button")
        self.css(".viewer .delete")[0].click()
        alert = self.driver.switch_to.alert
        question = alert.text
        alert.accept()
        self.assertEqual(question, f"Delete {path.name} for good? The library placed its file in its own folder: "
                         "it is erased at once, not kept in Recently Deleted.")
        self.wait(lambda: self.css(".viewer-status")[0].text == "Deleted", "the page says it is deleted")
        self.wait(lambda: not path.exists(), f"{path} is erased")
        self.assertNotIn(identifier, [item["localIdentifier"] for item in self.daemon.api("GET", "/v1/trash")[1]["assets"]])
        self.assertTrue(all(control.get_attribute("disabled") is not None for control in self.css(".viewer .action")),
                        "nothing more to do with it")

    def test_4b4_a_photo_whose_file_is_moved_away_says_so_and_offers_nothing(self):
        # Another program takes the file out of the watched folders: nothing went to the Trash.
        self.login("read-write")
        identifier = self.one_file_photo()
        path = Path(self.daemon.api("GET", "/v1/assets/" + identifier)[1]["resources"][0]["path"])
        self.driver.get(self.daemon.origin + "/web/assets/" + identifier)
        self.wait(lambda: self.css(".viewer.standalone .rating"), "the photo's own page")
        away = self.daemon.directory / path.name
        path.rename(away)
        try:
            self.wait(lambda: self.css(".viewer-status")[0].text
                      == "No longer in the library: its file was deleted or moved out of the watched folders",
                      "the page says the photo left the library, not that it went to the Trash")
            controls = self.css(".viewer .action")
            self.assertEqual(len(controls), 5)
            self.assertTrue(all(control.get_attribute("disabled") is not None for control in controls),
                            "nothing more to do with it")
        finally:
            away.rename(path)

    def test_4b5_a_refused_rating_leaves_the_stars_the_photo_has(self):
        from selenium.webdriver.support.ui import Select
        self.login("read-write")
        identifier = self.one_file_photo()
        self.driver.get(self.daemon.origin + "/web/assets/" + identifier)
        self.wait(lambda: self.css(".viewer.standalone .rating"), "the photo's own page")
        before = Select(self.css(".rating")[0]).first_selected_option.get_attribute("value")
        # The library refuses the change (409), as it would a photo it no longer has.
        self.driver.execute_script("""
            window.realFetch = window.fetch;
            window.fetch = (path, options) => path === '/v1/changes'
              ? Promise.resolve(new Response(JSON.stringify({error: {code: 3300, message: 'refused in the test'}}),
                  {status: 409, headers: {'Content-Type': 'application/json'}}))
              : window.realFetch(path, options);""")
        try:
            Select(self.css(".rating")[0]).select_by_value("5" if before != "5" else "4")
            self.wait(lambda: self.css(".viewer-status")[0].text == "refused in the test", "the refusal is said")
            self.assertEqual(Select(self.css(".rating")[0]).first_selected_option.get_attribute("value"), before,
                             "the select shows the stars the photo has")
        finally:
            self.driver.execute_script("window.fetch = window.realFetch")

    def one_file_photo(self):
        """A photo of the timeline with one file: moved away, nothing of its asset is left behind."""
        self.wait(lambda: self.cells(), "a cell")
        return next(i for i in self.cells() if len(self.daemon.api("GET", "/v1/assets/" + i)[1]["resources"]) == 1)

    def upload(self, name, data):
        """A new asset made from `data` through an upload, as a client without a server-side path makes one."""
        connection = harness.UnixConnection(str(self.daemon.socket))
        try:
            connection.request("POST", f"/v1/uploads?filename={name}", body=data,
                               headers={"Content-Type": "application/octet-stream"})
            response = connection.getresponse()
            answer = harness.json.loads(response.read())
        finally:
            connection.close()
        self.assertEqual(response.status, 201, answer)
        body = harness.json.dumps({"changes": [{"op": "createAsset", "upload": answer["upload"], "ref": "new"}]})
        status, created = self.daemon.api("POST", "/v1/changes", body.encode())
        self.assertEqual(status, 200, created)
        return created["created"]["new"]

    def delete_elsewhere(self, identifier):
        body = harness.json.dumps({"changes": [{"op": "deleteAssets", "assets": [identifier]}]}).encode()
        status, answer = self.daemon.api("POST", "/v1/changes", body)
        self.assertEqual(status, 200, answer)

    def test_4c_rename_a_folders_album(self):
        self.login("read-write")
        status, listing = self.daemon.api("GET", "/v1/albums?type=album")
        album = next(a for a in listing["albums"] if a.get("path") and a["localizedTitle"] == "Death Valley")
        old = Path(album["path"])
        self.driver.get(self.daemon.origin + "/web/albums/" + album["localIdentifier"])
        field = self.css("form[data-rename] input[name=title]")[0]
        field.clear()
        field.send_keys("Death Valley 2008")
        self.css("form[data-rename] button")[0].click()
        self.wait(lambda: (old.parent / "Death Valley 2008").is_dir() and not old.exists(), "the folder is renamed")
        self.wait(lambda: self.css("h1")[0].text == "Death Valley 2008", "the page says so")
        self.shot("album-renamed")

    def test_4c2_renaming_to_a_taken_name_shows_the_title_the_album_got(self):
        # A directory's name already taken beside it gets a suffix ("Trip (2)"): the page shows that one.
        self.login("read-write")
        albums = [a for a in self.daemon.api("GET", "/v1/albums?type=album")[1]["albums"] if a.get("path")]
        # Two directories side by side, the renamed one holding no other (not a folder's own album).
        leaves = [a for a in albums if not any(Path(b["path"]).parent == Path(a["path"]) for b in albums)]
        renamed, taken = next((a, b) for a in leaves for b in albums
                              if a is not b and Path(a["path"]).parent == Path(b["path"]).parent)
        old = renamed["localizedTitle"]
        self.driver.get(self.daemon.origin + "/web/albums/" + renamed["localIdentifier"])
        field = self.css("form[data-rename] input[name=title]")[0]
        field.clear()
        field.send_keys(taken["localizedTitle"])
        self.css("form[data-rename] button")[0].click()
        try:
            self.wait(lambda: self.daemon.api("GET", "/v1/albums/" + renamed["localIdentifier"])[1]["localizedTitle"]
                      != old, "the album is renamed")
            title = self.daemon.api("GET", "/v1/albums/" + renamed["localIdentifier"])[1]["localizedTitle"]
            self.assertNotEqual(title, taken["localizedTitle"], "a taken name gets a suffix")
            self.wait(lambda: self.css("h1")[0].text == title, f"the page says {title}")
            self.assertEqual(self.driver.title, f"{title} · photosd")
            self.assertEqual(self.css("form[data-rename] [role=status]")[0].text,
                             f"Renamed “{title}”: the name “{taken['localizedTitle']}” is taken")
        finally:
            body = harness.json.dumps({"changes": [{"op": "renameAlbum", "album": renamed["localIdentifier"], "title": old}]})
            self.assertEqual(self.daemon.api("POST", "/v1/changes", body.encode())[0], 200)

    def test_4d_hide_then_next_shows_the_photo_after_it(self):
        # The timeline reloads without the hidden photo: → goes on from where it was, skipping nothing.
        from selenium.webdriver.common.keys import Keys
        self.login("read-write")
        self.wait(lambda: len(self.in_order()) > 5, "cells")
        order = self.in_order()
        name = lambda identifier: Path(self.daemon.api("GET", "/v1/assets/" + identifier)[1]["resources"][0]["path"]).name
        # Three in a row with different names: the title tells which is shown.
        first = next(p for p in range(len(order) - 2) if len({name(order[p + i]) for i in range(3)}) == 3)
        shown, after = order[first], order[first + 1]
        self.css(f'.cell[data-id="{shown}"]')[0].click()
        self.wait(lambda: self.css(".viewer:not([hidden]) .hide-toggle"), "the viewer opens")
        try:
            self.css(".hide-toggle")[0].click()
            self.wait(lambda: self.daemon.api("GET", "/v1/assets/" + shown)[1]["isHidden"], "the library hides it")
            self.wait(lambda: shown not in self.cells(), "the timeline reloads without it")
            self.css("body")[0].send_keys(Keys.ARROW_RIGHT)
            self.wait(lambda: self.css(".viewer-title")[0].text != name(shown), "→ shows another photo")
            self.assertEqual(self.css(".viewer-title")[0].text, name(after), "the photo that followed it")
        finally:
            body = harness.json.dumps({"changes": [{"op": "editAsset", "asset": shown, "isHidden": False}]})
            self.assertEqual(self.daemon.api("POST", "/v1/changes", body.encode())[0], 200)
            self.css("body")[0].send_keys(Keys.ESCAPE)

    def in_order(self):
        """The identifiers of the cells drawn, in the grid's order."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('.cell[data-id]')]"
            ".sort((a, b) => a.dataset.position - b.dataset.position).map(cell => cell.dataset.id)")

    def test_5_a_copied_photo_appears_and_a_deleted_one_goes_without_a_reload(self):
        self.login()
        self.driver.execute_script("window.notReloaded = true")
        # A photo that states no date: its date is the file's, now, so it is the newest of all.
        source = next(harness.CORPUS / entry["path"] for entry in harness.json.loads(harness.TRUTH.read_text())
                      if entry.get("expect") == "ingest" and entry.get("kind") == "image"
                      and not entry.get("creationDate") and entry["path"].lower().endswith((".png", ".jpg")))
        target = self.daemon.pictures / "Dropped" / ("dropped-" + source.name)
        target.parent.mkdir(exist_ok=True)
        temporary = target.parent / ".part"
        shutil.copyfile(source, temporary)
        temporary.rename(target)
        alt = f'.cell img[alt^="{target.name},"]'
        self.wait(lambda: self.css(alt), f"{target.name} appears in the open timeline")
        self.assertTrue(self.driver.execute_script("return window.notReloaded === true"), "no reload")
        self.shot("live")
        target.unlink()
        self.wait(lambda: not self.css(alt), f"{target.name} disappears")
        self.assertTrue(self.driver.execute_script("return window.notReloaded === true"), "no reload")

    def test_5b_many_open_tabs_share_one_change_stream(self):
        # A browser keeps six connections per host: a stream per tab would starve the seventh.
        self.login()
        first = self.driver.current_window_handle
        try:
            for tab in range(8):
                self.driver.switch_to.new_window("tab")
                self.driver.get(self.daemon.origin + "/web")
                self.wait_grid()
                self.wait(lambda: self.cells(), f"tab {tab + 2} shows its thumbnails")
            self.wait(lambda: self.driver.execute_script("return document.documentElement.dataset.live") == "open",
                      "the last tab follows the changes")
        finally:
            for handle in self.driver.window_handles:
                if handle != first:
                    self.driver.switch_to.window(handle)
                    self.driver.close()
            self.driver.switch_to.window(first)

    def test_6_a_read_only_session_cannot_favorite(self):
        self.login("read-only")
        self.wait(lambda: self.cells(), "a cell")
        identifier = self.cells()[0]
        self.css(".cell[data-id]")[0].click()
        self.wait(lambda: self.css(".viewer:not([hidden]) .viewer-info-list"), "the viewer opens")
        self.assertFalse(self.css(".favorite-toggle"), "no favorite button")
        status = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            fetch('/v1/changes', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({changes: [{op: 'editAsset', asset: arguments[0], isFavorite: true}]})})
              .then(r => done(r.status), e => done(String(e)));""", identifier)
        self.assertEqual(status, 403)
        # The refusal is the one thing the console may say.
        logged = [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertTrue(all("/v1/changes" in message and "403" in message for message in logged), logged)
        self.shot("read-only")

    def test_7_health_page(self):
        self.login("read-write")
        self.driver.get(self.daemon.origin + "/web/health")
        self.wait(lambda: self.css("[data-health] table"), "the roots' table")
        self.assertIn(str(self.daemon.pictures), self.css("[data-health] table")[0].text)
        # A file that is not what its name says, dropped while the page is open, is named with why.
        broken = self.daemon.pictures / "not a photo.jpg"
        broken.write_text("hello, not a JPEG\n")
        try:
            self.wait(lambda: any("not a photo.jpg" in row.text and "(notMedia)" in row.text
                                  for row in self.css("[data-health] table.rejected tr")),
                      "the dropped file and why on the health page")
            self.shot("health")
        finally:
            broken.unlink()

    def test_7b_phone_width_and_dark(self):
        self.login()
        try:
            self.driver.set_window_size(390, 844)
            self.driver.get(self.daemon.origin + "/web")
            self.wait_grid()
            self.wait(lambda: self.cells(), "thumbnails at phone width")
            width = self.driver.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(width, 390, "nothing wider than the screen")
            self.shot("phone-timeline")
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
            self.assertEqual(background, "rgb(18, 18, 18)", "dark by the system's preference")
            self.css(".cell[data-id]")[0].click()
            self.wait(lambda: self.css(".viewer:not([hidden]) .viewer-info-list"), "the viewer opens")
            self.shot("phone-dark-asset")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            self.driver.set_window_size(1280, 900)

    def test_8_the_pages_own_unit_tests_pass_in_this_browser(self):
        handler = functools.partial(QuietHandler, directory=str(harness.ROOT))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            self.driver.get(f"http://127.0.0.1:{server.server_address[1]}/Tests/Browser/unit.html")
            self.wait(lambda: self.driver.execute_script("return document.body.dataset.done === 'true'"),
                      "the unit tests run")
            results = self.driver.find_element("id", "results").text
            self.assertEqual(self.driver.execute_script("return document.body.dataset.failed"), "0", results)
            self.assertGreaterEqual(int(self.driver.execute_script("return document.body.dataset.passed")), 10)
        finally:
            server.shutdown()

    def test_9_no_request_left_loopback(self):
        self.collect_urls()
        self.assertGreater(len(self.urls), 20)
        outside = [url for url in self.urls
                   if not url.startswith(("http://127.0.0.1:", "data:", "blob:"))]
        self.assertEqual(outside, [])


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", type=Path, default=OPTIONS.bin, help="where photos and photosd are")
    parser.add_argument("--artifacts", type=Path, help="where the screenshots go")
    OPTIONS, rest = parser.parse_known_args()
    OPTIONS.bin = OPTIONS.bin.resolve()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
