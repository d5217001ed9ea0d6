#!/usr/bin/env python3
"""page_test.py - the page of `cured animate --html`, in a real browser.

    page_test.py CURED OUTDIR

Writes the page with CURED, opens it in headless Chromium (Debian's
`chromium`) driven over the DevTools protocol on a pipe (python3's standard
library only), and checks, through the page's own controls and keys:
each of the lesson's four versions played to its end shows the lesson's
counts in its counter cards; keyboard stepping lands on the expected step;
the page starts playing by itself, except under prefers-reduced-motion;
no script error; and the page makes no network request (every request the
browser reports is the page's own file, which also carries a
Content-Security-Policy forbidding any other, and the file holds no
http(s):// URL). It saves screenshots of a middle step in light mode, dark
mode and at 390 px wide into OUTDIR. Exit 77 (skipped) when chromium is
missing or cannot run here.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77

# version button label -> the lesson table's row: accesses, __syncthreads,
# worst bank conflict, divergent warps (first step)
EXPECTED = {
    "divergent": ("189", "6", "1-way", "2 of 2"),
    "strided index": ("189", "6", "2-way", "0 of 1"),
    "sequential": ("189", "6", "1-way", "0 of 1"),
    "warp shuffle": ("4", "1", "-", "none"),
}


class Browser:
    """Chromium with its DevTools protocol on fds 3 (commands in) and 4
    (replies and events out), NUL-separated JSON."""

    def __init__(self, exe, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.out_r, out_w = os.pipe()
        args = [exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--remote-debugging-pipe", "--user-data-dir=" + profile,
                "about:blank"]
        shell = 'exec "$@" 3<&%d 4>&%d' % (cmd_r, out_w)
        self.proc = subprocess.Popen(["sh", "-c", shell, "sh"] + args,
                                     pass_fds=(cmd_r, out_w),
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(out_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no reply from chromium")
            import select
            ready, _, _ = select.select([self.out_r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.out_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read_message(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def js(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: %s" % json.dumps(r["exceptionDetails"])[:500])
        return r["result"].get("value")

    def key(self, key, code, vk):
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": vk,
                                                 "nativeVirtualKeyCode": vk})

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def open_page(b, url, dark=False, width=1100, height=1000, mobile=False, reduced=True):
    features = [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"},
                {"name": "prefers-reduced-motion", "value": "reduce" if reduced else "no-preference"}]
    b.send("Emulation.setEmulatedMedia", {"features": features})
    b.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                  "deviceScaleFactor": 2 if mobile else 1,
                                                  "mobile": mobile})
    b.send("Page.navigate", {"url": url})
    b.wait_event("Page.loadEventFired")


def screenshot(b, path, full=True):
    r = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": full})
    with open(path, "wb") as f:
        f.write(base64.b64decode(r["data"]))


def cards(b):
    return b.js("""(() => { const v = k => document.querySelector('[data-k="' + k + '"]').textContent;
        return [v('accesses'), v('syncs'), v('worst'), v('first')]; })()""")


def pick(b, label):
    b.js("""(() => { const btn = [...document.querySelectorAll('#lesson-versions button')]
        .find(x => x.textContent === %s); btn.click(); return true; })()""" % json.dumps(label))


def play_to_end(b, label):
    pick(b, label)
    b.js("""(() => { const s = document.getElementById('speed'); s.value = '4';
        s.dispatchEvent(new Event('change')); document.getElementById('btn-play').click();
        return true; })()""")
    deadline = time.time() + 60
    while time.time() < deadline:
        st = b.js("[document.body.dataset.playing, document.body.dataset.frame, "
                  "document.body.dataset.frames]")
        if st[0] == "false" and st[1] == st[2]:
            return int(st[2])
        time.sleep(0.2)
    fail("%s did not play to its end" % label)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    cured, outdir = sys.argv[1], sys.argv[2]
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        print("SKIP: no chromium (scripts/setup.sh installs Debian's)")
        return SKIP
    os.makedirs(outdir, exist_ok=True)
    page = os.path.join(outdir, "page.html")
    subprocess.run([cured, "animate", "--html", page], check=True, stdout=subprocess.DEVNULL)
    text = open(page, encoding="utf-8").read()
    if re.search(r"https?://", text):
        fail("the page names an http(s) URL: " + re.search(r".{0,40}https?://.{0,40}", text).group(0))
    if "Content-Security-Policy" not in text or "default-src 'none'" not in text:
        fail("no Content-Security-Policy forbidding requests")
    if re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)=", text):
        fail("the page loads an external script, style or image")
    url = "file://" + os.path.abspath(page)

    profile = tempfile.mkdtemp(prefix="cured-chromium-")
    try:
        b = Browser(exe, profile)
        try:
            targets = b.send("Target.getTargets", session=False, timeout=20)
        except (TimeoutError, EOFError) as e:
            print("SKIP: chromium cannot run here (%s)" % e)
            return SKIP
        page_target = next(t for t in targets["targetInfos"] if t["type"] == "page")
        b.session = b.send("Target.attachToTarget", {"targetId": page_target["targetId"],
                                                     "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            b.send(domain + ".enable")

        # plays by itself when it comes into view ...
        open_page(b, url, reduced=False)
        time.sleep(0.5)
        if b.js("document.body.dataset.playing") != "true":
            fail("the page did not start playing when shown")
        # ... and never under prefers-reduced-motion
        open_page(b, url, reduced=True)
        time.sleep(0.5)
        if b.js("document.body.dataset.playing") != "false":
            fail("the page plays under prefers-reduced-motion")

        for label, want in EXPECTED.items():
            n = play_to_end(b, label)
            got = tuple(cards(b))
            print("%-14s %2d steps: %s" % (label, n, " / ".join(got)))
            if got != want:
                fail("%s ends with %s, the lesson says %s" % (label, got, want))

        # keys: End, left, Home, right, and space plays
        pick(b, "sequential")
        b.js("document.activeElement.blur(), true")
        n = int(b.js("document.body.dataset.frames"))
        for key, code, vk, want in (("End", "End", 35, n), ("ArrowLeft", "ArrowLeft", 37, n - 1),
                                    ("Home", "Home", 36, 0), ("ArrowRight", "ArrowRight", 39, 1),
                                    ("ArrowRight", "ArrowRight", 39, 2)):
            b.key(key, code, vk)
            got = b.js("[Number(document.body.dataset.frame), "
                       "document.getElementById('step-label').textContent]")
            if got[0] != want or got[1] != "step %d/%d" % (want, n):
                fail("after %s: frame %s (%s), want %d" % (key, got[0], got[1], want))
        b.key(" ", "Space", 32)
        if b.js("document.body.dataset.playing") != "true":
            fail("space did not start playing")
        b.key(" ", "Space", 32)
        if b.js("document.body.dataset.playing") != "false":
            fail("space did not pause")
        caption = b.js("document.getElementById('caption').getAttribute('aria-live')")
        if caption != "polite":
            fail("the caption is not an aria-live region")
        print("keys: End, left, Home, right, right, space, space: ok")

        # screenshots of a middle step: light, dark, 390 px
        shots = [("light", False, 1100, 1000, False), ("dark", True, 1100, 1000, False),
                 ("390px", False, 390, 844, True)]
        for name, dark, width, height, mobile in shots:
            open_page(b, url, dark=dark, width=width, height=height, mobile=mobile)
            pick(b, "strided index")
            b.js("document.activeElement.blur(), true")
            for _ in range(3):
                b.key("ArrowRight", "ArrowRight", 39)
            overflow = b.js("document.documentElement.scrollWidth") - width
            if overflow > 1:
                fail("at %d px the page is %d px too wide" % (width, overflow))
            path = os.path.join(outdir, "animate-%s.png" % name)
            screenshot(b, path)
            print("screenshot: " + path)
            if name == "light":
                # the player alone, as docs/animation.png shows it
                r = b.js("(() => { const r = document.querySelector('.panel')"
                         ".getBoundingClientRect(); return [r.x, r.y + window.scrollY, "
                         "r.width, r.height]; })()")
                shot = b.send("Page.captureScreenshot", {
                    "format": "png", "captureBeyondViewport": True,
                    "clip": {"x": r[0] - 8, "y": r[1] - 8, "width": r[2] + 16,
                             "height": r[3] + 16, "scale": 1}})
                path = os.path.join(outdir, "animate-panel.png")
                with open(path, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                print("screenshot: " + path)
            if mobile:
                # what a phone shows: the screen from the versions to the cards
                b.js("document.querySelector('.pick').scrollIntoView(), true")
                path = os.path.join(outdir, "animate-%s-screen.png" % name)
                screenshot(b, path, full=False)
                print("screenshot: " + path)

        errors = [e for e in b.events if e.get("method") == "Runtime.exceptionThrown" or
                  (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
        if errors:
            fail("the page reported errors: %s" % json.dumps(errors[0])[:400])
        requests = [e["params"]["request"]["url"] for e in b.events
                    if e.get("method") == "Network.requestWillBeSent"]
        other = [u for u in requests if u != url]
        if other:
            fail("the page made requests: %s" % other[:5])
        print("network: %d request(s), all the page's own file" % len(requests))
        b.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
