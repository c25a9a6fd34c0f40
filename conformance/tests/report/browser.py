"""A real headless Chromium driven over the DevTools protocol, with no dependency beyond Python.

Chromium's ``--remote-debugging-pipe`` speaks the DevTools protocol on file descriptors 3
(commands in) and 4 (replies and events out), one JSON message per NUL-terminated chunk: no
websocket, no chromedriver, no selenium. Used by ``test_report_browser.py`` and the report page
benchmark (``python -m conformance.bench.report_page``).

    with Chromium.start() as browser:
        page = browser.open(path, width=1366, height=768)
        page.evaluate("document.title")
        page.requests, page.console          # every request the page made; console errors, exceptions

Chromium runs with ``--headless --no-sandbox --disable-gpu --disable-background-networking
--disable-component-update --disable-sync --no-first-run`` and a fresh ``--user-data-dir``.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio")


def find_chromium() -> str | None:
    """Debian's ``chromium`` (or another Chromium/Chrome on PATH)."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """Both fds moved to numbers >= 10 (close-on-exec)."""
    import fcntl
    out = []
    for fd in fds:
        out.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return out[0], out[1]


class Chromium:
    """One headless Chromium process and its DevTools pipe."""

    def __init__(self, binary: str, timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="assay-chromium-")
        cmd_read, self._cmd_write = _high(os.pipe())
        self._out_read, out_write = _high(os.pipe())

        def pipes() -> None:   # in the child, before exec: the protocol's fds 3 and 4 (inheritable)
            os.dup2(cmd_read, 3)
            os.dup2(out_write, 4)

        # close_fds=False: Python's own fds are close-on-exec (PEP 446); fds 3 and 4 must survive exec
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=pipes, close_fds=False)
        os.close(cmd_read)
        os.close(out_write)
        self._next = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr: list[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr or ()), daemon=True).start()

    @classmethod
    def start(cls, binary: str | None = None, timeout: float = 60.0) -> "Chromium":
        path = binary or find_chromium()
        if path is None:
            raise BrowserError("no Chromium on PATH (Debian: apt-get install chromium)")
        return cls(path, timeout)

    # ------------------------------------------------------------------ protocol
    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._out_read, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._replies[-1] = {"error": {"message": "Chromium closed the DevTools pipe"}}
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cond:
                        self._replies[msg["id"]] = msg
                        self._cond.notify_all()
                else:
                    self._events.put(msg)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its result (a protocol error raises BrowserError)."""
        self._next += 1
        ident = self._next
        msg: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_write, json.dumps(msg).encode("utf-8") + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while ident not in self._replies and -1 not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"{method}: no reply in {self.timeout:.0f} s")
                self._cond.wait(left)
            reply = self._replies.pop(ident, None) or self._replies[-1]
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')} {self.stderr()[-500:]}")
        return reply.get("result", {})

    def events(self) -> list[dict[str, Any]]:
        """The events received since the last call."""
        out = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out

    def wait_event(self, method: str, session: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
        """Wait for event ``method`` of ``session``; every event received meanwhile goes to ``seen``."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"no {method} in {self.timeout:.0f} s")
            try:
                ev = self._events.get(timeout=left)
            except queue.Empty:
                continue
            seen.append(ev)
            if ev.get("method") == method and ev.get("sessionId") == session:
                return ev

    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    # ------------------------------------------------------------------ pages
    def open(self, path: str | Path, width: int = 1366, height: int = 768) -> "Page":
        """A new tab of ``width`` x ``height`` CSS pixels with ``path`` loaded (load event fired)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, width, height)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
        url = Path(path).resolve().as_uri()
        page.url = url
        self.send("Page.navigate", {"url": url}, session)
        self.wait_event("Page.loadEventFired", session, page.log)
        return page

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close")
                except BrowserError:
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=10)
        finally:
            for fd in (self._cmd_write, self._out_read):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    """One tab: evaluate JavaScript, and what it requested and logged."""

    def __init__(self, browser: Chromium, session: str, width: int, height: int):
        self.browser, self.session, self.width, self.height = browser, session, width, height
        self.url = ""
        self.log: list[dict[str, Any]] = []      # every event of this tab

    def _drain(self) -> None:
        self.log.extend(e for e in self.browser.events())

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (an exception in it raises BrowserError)."""
        res = self.browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                     "awaitPromise": True}, self.session)
        self._drain()
        if "exceptionDetails" in res:
            raise BrowserError(f"{expression[:80]}: {res['exceptionDetails'].get('exception', {}).get('description')}")
        return res["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        import base64
        data = self.browser.send("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def _mine(self) -> list[dict[str, Any]]:
        self._drain()
        return [e for e in self.log if e.get("sessionId") == self.session]

    @property
    def requests(self) -> list[str]:
        """The URL of every request the page made (the page itself included)."""
        return [e["params"]["request"]["url"] for e in self._mine() if e.get("method") == "Network.requestWillBeSent"]

    @property
    def console(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions and browser log errors of the page."""
        out = []
        for e in self._mine():
            method, p = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append(f"console.{p['type']}: " + " ".join(str(a.get("value", a.get("description")))
                                                               for a in p.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(f"exception: {d.get('exception', {}).get('description') or d.get('text')}")
            elif method == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append(f"log {p['entry']['level']}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out
