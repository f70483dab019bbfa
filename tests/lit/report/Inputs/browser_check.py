#!/usr/bin/env python3
"""Loads fabc's report/index.html in headless Chromium and checks it as a reader would.

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no port,
no network), offline, with a fresh profile, and asserts:
  - no console message of level warning or error, no uncaught exception, no failed
    load, and no request other than the file itself (the page fetches nothing);
  - no horizontal overflow at 1400 px;
  - every element with data-json="FILE:PATH" shows the value FILE's JSON output has at
    PATH (several paths joined by '+' are summed), and its visible text agrees with it;
  - the keys given with --require are among them (the page cannot silently drop them);
and saves a 1400x2000 screenshot, a full-page screenshot and a print PDF of the page.

  - every small chart (figure.chart.small) is at most 600 px wide;
  - the Diagnostics section lists each code given with --require-diag (FAB-W0160);

usage: browser_check.py OUTDIR ARTIFACTS [--require KEY]... [--require-diag CODE]...
  (OUTDIR: fabc's -o dir)
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 60


class Chromium:
    def __init__(self, profile):
        r1, w1 = os.pipe()  # we write commands -> chromium reads fd 3
        r2, w2 = os.pipe()  # chromium writes fd 4 -> we read
        args = [shutil.which("chromium") or "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--hide-scrollbars", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        env = dict(os.environ)
        env.setdefault("DBUS_SESSION_BUS_ADDRESS", "disabled:")

        def child_fds():
            os.dup2(r1, 3)
            os.dup2(w2, 4)

        self.proc = subprocess.Popen(args, preexec_fn=child_fds, pass_fds=(3, 4), env=env,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(profile, "chromium.log"), "wb"))
        os.close(r1)
        os.close(w2)
        self.w = os.fdopen(w1, "wb", buffering=0)
        self.r = os.fdopen(r2, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = self.r.read(65536)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.w.write(json.dumps(msg).encode() + b"\0")
        deadline = time.time() + TIMEOUT
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == name:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.w.write(json.dumps({"id": 999999, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def json_at(doc, path):
    """'summary.transceivers.total', 'cables[3].count', 'by_tier.leaf.total_w'."""
    cur = doc
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            cur = cur[int(part[1:-1])]
        else:
            cur = cur[part]
    return cur


# Units a figure may be shown in, scaled to the unit its JSON key is in.
SHARE_KEY = re.compile(r"(_share|_pairs|\.pairs_[a-z_]+)$")
UNITS = {"W": 1, "kW": 1e3, "MW": 1e6, "GW": 1e9, "%": 1, "MWh": 1, "m": 1, "km": 1e3}
UNITS_GBPS = {"Gb/s": 1, "Tb/s": 1e3, "Pb/s": 1e6}
UNITS_NS = {"ns": 1, "\u00b5s": 1e3, "ms": 1e6}


def shown_number(text, key):
    """The first number in an element's visible text, scaled by its unit; None if none."""
    units = UNITS_GBPS if key.endswith("_gbps") else UNITS_NS if key.endswith("_ns") else UNITS
    alts = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    m = re.search(r"(-?[\d,]+(?:\.\d+)?)\s*(%s)?(?![A-Za-z])" % alts, text.replace("\u00a0", " "))
    if not m:
        return None
    v = float(m.group(1).replace(",", ""))
    return v * units.get(m.group(2) or "", 1)


def main():
    outdir, artifacts = sys.argv[1], sys.argv[2]
    required = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--require"]
    required_diags = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--require-diag"]
    os.makedirs(artifacts, exist_ok=True)
    page = os.path.abspath(os.path.join(outdir, "report", "index.html"))
    url = "file://" + page
    docs = {}
    for name, rel in (("bom", "bom/bom.json"), ("energy", "energy/energy.json"), ("summary", "summary.json")):
        with open(os.path.join(outdir, rel)) as f:
            docs[name] = json.load(f)

    profile = tempfile.mkdtemp(prefix="fabc-chromium-")
    failures = []
    timer = threading.Timer(TIMEOUT * 3, lambda: os._exit(3))  # never hang the suite
    timer.start()
    browser = Chromium(profile)
    try:
        targets = browser.call("Target.getTargets")["targetInfos"]
        target = next(t["targetId"] for t in targets if t["type"] == "page")
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(domain + ".enable", session=session)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 1400, "height": 2000, "deviceScaleFactor": 1, "mobile": False}, session=session)
        browser.events.clear()
        browser.call("Page.navigate", {"url": url}, session=session)
        browser.wait_event("Page.loadEventFired", time.time() + TIMEOUT)
        # Let late console messages (SVG attribute errors are reported while rendering) arrive.
        browser.call("Runtime.evaluate", {"expression": "new Promise(r => requestAnimationFrame(() => "
                                          "requestAnimationFrame(r)))", "awaitPromise": True}, session=session)

        for e in browser.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                failures.append("console %s: %s" % (p["type"], [a.get("value") for a in p.get("args", [])]))
            elif m == "Runtime.exceptionThrown":
                failures.append("exception: %s" % p["exceptionDetails"].get("text"))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                failures.append("console %s (%s): %s" % (p["entry"]["level"], p["entry"]["source"], p["entry"]["text"]))
            elif m == "Network.loadingFailed":
                failures.append("failed load: %s" % p.get("errorText"))
            elif m == "Network.requestWillBeSent" and p["request"]["url"] != url:
                failures.append("the page requested %s" % p["request"]["url"])

        expr = """const shownText = e => { const c = e.cloneNode(true);
            c.querySelectorAll('.est, .est-mark').forEach(x => x.remove()); return c.textContent; };
          JSON.stringify({
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          height: document.documentElement.scrollHeight,
          items: Array.from(document.querySelectorAll('[data-json]')).map(e => ({
            key: e.dataset.json, value: e.dataset.value, text: e.dataset.text,
            shown: e.tagName.toLowerCase() === 'rect' ? null : shownText(e)})),
          sections: Array.from(document.querySelectorAll('main > section')).map(s => s.id),
          charts: Array.from(document.querySelectorAll('figure.chart')).map(f => ({
            id: f.id, small: f.classList.contains('small'), width: f.getBoundingClientRect().width})),
          diags: Array.from(document.querySelectorAll('#diagnostics .diag')).map(d => d.dataset.code),
          svgs: document.querySelectorAll('svg').length})"""
        res = json.loads(browser.call("Runtime.evaluate", {"expression": expr, "returnByValue": True},
                                      session=session)["result"]["value"])
        if res["overflow"] > 0:
            failures.append("the page is %d px wider than the 1400 px window" % res["overflow"])
        seen = set()
        for it in res["items"]:
            for key in it["key"].split("+"):
                seen.add(key)
            try:
                if it.get("text") is not None:  # a string figure
                    fname, path = it["key"].split(":", 1)
                    want = json_at(docs[fname], path)
                    if it["text"] != want:
                        failures.append("%s: page shows %r, JSON has %r" % (it["key"], it["text"], want))
                    continue
                want = 0.0
                for key in it["key"].split("+"):
                    fname, path = key.split(":", 1)
                    want += float(json_at(docs[fname], path))
            except (KeyError, IndexError, ValueError) as ex:
                failures.append("%s: not in the JSON outputs (%s)" % (it["key"], ex))
                continue
            got = float(it["value"])
            if abs(got - want) > 1e-6 * max(1.0, abs(want)):
                failures.append("%s: page has %r, JSON has %r" % (it["key"], got, want))
            if it.get("shown"):
                shown = shown_number(it["shown"], it["key"])
                # A share in the JSON (0-1: keys *_share, *_pairs, pairs_*) is shown in %.
                if shown is not None and "%" in it["shown"] and SHARE_KEY.search(it["key"]):
                    shown /= 100
                # Shown figures are rounded for reading: 3-4 significant digits.
                if shown is None or abs(shown - want) > 0.006 * abs(want) + 0.0051:
                    failures.append("%s: shows %r, JSON has %r" % (it["key"], it["shown"].strip(), want))
        for key in required:
            if key not in seen:
                failures.append("the page does not show %s" % key)
        # A small chart (one column of a few bars) is drawn at a grid column's width, as the
        # other charts are, never across the page (its SVG scales with its box).
        for c in res["charts"]:
            if c["small"]:
                print("chart %s: %d px wide" % (c["id"], round(c["width"])))
                if c["width"] > 600:
                    failures.append("chart %s is %d px wide (a small chart is at most 600)" % (c["id"], c["width"]))
        print("diagnostics listed: %s" % (" ".join(res["diags"]) or "none"))
        for code in required_diags:
            if code not in res["diags"]:
                failures.append("the Diagnostics section does not list %s" % code)

        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(os.path.join(artifacts, "report.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        height = min(int(res["height"]), 16000)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": 1400, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        full = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                            session=session)
        with open(os.path.join(artifacts, "report-full.png"), "wb") as f:
            f.write(base64.b64decode(full["data"]))
        pdf = browser.call("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True}, session=session)
        pdf_bytes = base64.b64decode(pdf["data"])
        with open(os.path.join(artifacts, "report.pdf"), "wb") as f:
            f.write(pdf_bytes)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf_bytes))
        print("sections: %s" % " ".join(res["sections"]))
        print("figures checked against the JSON: %d" % len(res["items"]))
        print("svg drawings: %d" % res["svgs"])
        print("pdf pages: %d" % pages)
    finally:
        browser.close()
        timer.cancel()
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("browser check: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
