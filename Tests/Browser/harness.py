"""A real photosd over a folder of photos, and a real browser logged into its page.

Shared by the browser tests (Tests/Browser/test_web.py) and the page's benchmark
(scripts/bench-web). Nothing is mocked: the binaries are the build's (`--bin`, default
.build/debug), the browser is Debian's chromium driven through chromedriver (selenium), the
library is made by photosd's own scan of the folder, and the login is `photos open`'s URL.
"""

import atexit
import http.client
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
TRUTH = ROOT.parent / "shared" / "truth.json"


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket."""

    def __init__(self, path: str):
        super().__init__("photosd", timeout=30)
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(self.socket_path)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def corpus_media():
    """The corpus files truth.json says are ingested, as (relative path, absolute path)."""
    truth = json.loads(TRUTH.read_text())
    entries = truth["files"] if isinstance(truth, dict) and "files" in truth else truth
    for entry in entries:
        if entry.get("expect") == "ingest":
            yield entry["path"], CORPUS / entry["path"]


class Daemon:
    """photosd serving `pictures` (copied from the corpus unless given), with a TCP listener.

    `roots`: more watched folders beside `pictures`. `thumbnail_sizes`: the sizes photosd makes
    ahead (none unless given). `cache_home`: the `XDG_CACHE_HOME` it keeps its thumbnail cache
    under (default: the caller's own), so a benchmark can keep one between runs. `started` and
    `ready` are the `time.monotonic()` of the start and of the end of its startup crawl.
    """

    def __init__(self, bin_dir: Path, pictures: Path | None = None, library: Path | None = None,
                 extra_config: str = "", roots: list | None = None, thumbnail_sizes: list | None = None,
                 cache_home: Path | None = None, write: str = "none"):
        self.bin = Path(bin_dir)
        self.directory = Path(tempfile.mkdtemp(prefix="photos-web-"))
        if pictures is None:
            pictures = self.directory / "Pictures"
            for relative, source in corpus_media():
                target = pictures / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        self.pictures = Path(pictures)
        self.library = library or self.directory / "library.sqlite"
        self.socket = self.directory / "photosd.sock"
        self.port = free_port()
        self.config = self.directory / "photosd.toml"
        # `write`: what photosd may do to `pictures` (none, sidecars, files); other roots are read only.
        watched = ", ".join([f'{{ path = "{self.pictures}", write = "{write}" }}',
                             *(f'{{ path = "{root}", write = "none" }}' for root in roots or [])])
        if thumbnail_sizes:
            extra_config = f"thumbnail_sizes = [{', '.join(str(size) for size in thumbnail_sizes)}]\n" + extra_config
        self.config.write_text(
            f'library = "{self.library}"\nroots = [{watched}]\nsocket = "{self.socket}"\n'
            f'listen = "127.0.0.1:{self.port}"\n{extra_config}')
        self.log = open(self.directory / "photosd.log", "w")
        environment = dict(os.environ, XDG_RUNTIME_DIR=str(self.directory), XDG_DATA_HOME=str(self.directory / "data"))
        if cache_home is not None:
            environment["XDG_CACHE_HOME"] = str(cache_home)
        self.environment = environment
        self.started = time.monotonic()
        self.process = subprocess.Popen([str(self.bin / "photosd"), "--config", str(self.config)],
                                        stdout=self.log, stderr=subprocess.STDOUT, env=environment)
        self.wait_ready()
        self.ready = time.monotonic()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def api(self, method: str, path: str, body: bytes | None = None):
        """One request to the API on the Unix socket, as its owner: (status, parsed JSON or the bytes)."""
        connection = UnixConnection(str(self.socket))
        try:
            connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        try:
            return response.status, json.loads(body)
        except ValueError:
            return response.status, body

    def wait_ready(self, seconds: float = 300):
        """Until photosd's startup crawl is done (GET /v1/status answers 200)."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"photosd exited {self.process.returncode}: {self.log_text()}")
            try:
                if self.api("GET", "/v1/status")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"photosd did not become ready: {self.log_text()}")

    def wait_thumbnails(self, photos: int, seconds: float = 3600, progress=None):
        """Until the thumbnails made ahead of the `photos` photos held at the start are all made
        (or kept); `progress(done, total)` is called every few seconds meanwhile. Returns the
        status's `thumbnails` object."""
        deadline = time.time() + seconds
        last = 0.0
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"photosd exited {self.process.returncode}: {self.log_text()}")
            thumbnails = self.api("GET", "/v1/status")[1].get("thumbnails")
            if thumbnails is None:
                # Not started yet, or not configured.
                if time.monotonic() - self.ready > 60:
                    raise RuntimeError("photosd makes no thumbnails ahead (no thumbnail_sizes)")
                time.sleep(0.1)
                continue
            # A fresh library's photos come through the change feed (made, kept or failed); those
            # an earlier run ingested are the ones "at start".
            done = thumbnails["made"] + thumbnails["kept"] + thumbnails["failed"] + thumbnails["photosAtStartDone"]
            if done >= photos and thumbnails["photosAtStartDone"] >= thumbnails["photosAtStart"]:
                return thumbnails
            if progress and time.time() - last > 10:
                last = time.time()
                progress(done, photos)
            time.sleep(0.5)
        raise RuntimeError(f"the thumbnails were not made in {seconds} s")

    def log_text(self) -> str:
        self.log.flush()
        return (self.directory / "photosd.log").read_text()[-4000:]

    def photos(self, *arguments: str) -> str:
        """Runs `photos ARGUMENTS --config …` and returns its output (raises on failure)."""
        done = subprocess.run([str(self.bin / "photos"), *arguments, "--config", str(self.config)],
                              capture_output=True, text=True, env=self.environment)
        if done.returncode != 0:
            raise RuntimeError(f"photos {' '.join(arguments)}: {done.stderr}")
        return done.stdout

    def assets(self, predicate: str | None = None):
        arguments = ["assets", "--json"]
        if predicate:
            arguments += ["--predicate", predicate]
        return [json.loads(line) for line in self.photos(*arguments).splitlines() if line.strip()]

    def login_url(self, access: str = "read-only") -> str:
        return json.loads(self.photos("open", "--no-browser", "--json", "--access", access))["url"]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def browser(width: int = 1280, height: int = 900):
    """Headless chromium through Debian's chromedriver, logging every request (performance log)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-default-apps", "--disable-sync",
                     "--metrics-recording-only", "--no-default-browser-check", "--password-store=basic"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    # Chromium's profile and singleton socket go in $TMPDIR, and a killed or headless one leaves
    # them there: a directory of the run's own, removed as the run ends.
    scratch = tempfile.mkdtemp(prefix="photos-chromium-")
    atexit.register(shutil.rmtree, scratch, True)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env=dict(os.environ, TMPDIR=scratch))
    return webdriver.Chrome(service=service, options=options)


def requested_urls(driver):
    """Every URL the browser asked for since the last call (from the performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls
