#!/usr/bin/env python3
"""cdp.py: drive one headless Chromium through the DevTools protocol over a pipe (no network,
no library): open pages at a given window size and colour scheme, run JavaScript in them, press
keys, take screenshots. check_browser.py uses it; so can a person:
    python3 tools/book/cdp.py shot build/book/site/ch05.html 1280 out.png [dark] [#section]"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--disable-extensions", "--mute-audio", "--remote-debugging-pipe"]


class Error(Exception):
    pass


class Browser:
    """One Chromium; one tab at a time (Browser.open)."""

    def __init__(self, binary="chromium"):
        self.profile = tempfile.mkdtemp(prefix="book-cdp-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Out of the way of 3 and 4, which the child's ends are moved to.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_chrome_r, from_chrome_w)]
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        to_chrome_r, from_chrome_w = high

        def fds():      # Chromium reads commands on fd 3 and writes answers on fd 4
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=None if os.environ.get("CDP_DEBUG") else subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf, self.next_id, self.events, self.session = b"", 0, [], None

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for fd in (self.to_chrome, self.from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise Error("Chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise Error("Chromium went away")
            self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def call(self, method, params=None, session=True, timeout=60):
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise Error(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        while True:
            for k, m in enumerate(self.events):
                if m.get("method") == method:
                    del self.events[k]
                    return m.get("params", {})
            self.events.append(self._read(deadline))

    def open(self, url, width=1280, height=900, dark=False, mobile=False, print_media=False):
        """A fresh tab at `url` with a window of width x height, after its load event."""
        if self.session:
            self.call("Target.closeTarget", {"targetId": self.target}, session=False)
        self.target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": self.target, "flatten": True},
                                 session=False)["sessionId"]
        self.events = []
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                  "deviceScaleFactor": 1, "mobile": mobile})
        if mobile:
            self.call("Emulation.setTouchEmulationEnabled", {"enabled": True})
        self.call("Emulation.setEmulatedMedia", {"media": "print" if print_media else "", "features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")
        self.js("document.fonts ? document.fonts.ready.then(() => 1) : 1")
        return self

    def js(self, expression):
        """The value of a JavaScript expression in the page (promises are awaited)."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise Error(f"{expression[:60]}...: {r['exceptionDetails'].get('exception', {}).get('description') or r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    def key(self, key, code=None, keycode=0):
        """Press and release a key (\"ArrowRight\", \"Escape\", \"Tab\")."""
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code or key,
                                                 "windowsVirtualKeyCode": keycode})

    def tap(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path


def main(argv):
    if len(argv) < 5 or argv[1] != "shot":
        sys.exit(__doc__)
    page, width, out = argv[2], int(argv[3]), argv[4]
    rest = argv[5:]
    dark = "dark" in rest
    frag = next((r for r in rest if r.startswith("#")), "")
    url = "file://" + os.path.abspath(page) + frag
    with Browser() as b:
        b.open(url, width=width, height=900, dark=dark, mobile=width < 600)
        time.sleep(0.3)
        b.screenshot(out)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
