"""The HTML report in a real browser: Debian's headless Chromium renders
docs/report/index.html; every section heading of the Markdown report and every
plot is laid out on the page, a screenshot is painted, and the page fetches
nothing from outside (every resource it loads is the file itself).

A copy of the page gets a script that runs once the page has loaded and writes
what it found into the document (headings with a box, figures whose SVG has a
box, the URLs of performance.getEntriesByType("resource")); Chromium's
--dump-dom prints that document.  The network is closed by the host resolver
rule, so a fetch from outside would also fail, not hang.  `make test` installs
the browser (tools/deps.sh browser); without it the test skips, naming why.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "docs" / "report"
BROWSERS = ("chromium-headless-shell", "chromium")

PROBE = """<script>
window.addEventListener("load", () => {
  const boxed = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const found = {
    headings: [...document.querySelectorAll("h2[id], h3[id]")].filter(boxed).map(h => h.id),
    figures: [...document.querySelectorAll("figure")].filter(f => {
      const svg = f.querySelector("svg"); return svg !== null && boxed(svg); }).length,
    resources: performance.getEntriesByType("resource").map(e => e.name),
  };
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = "PROBE " + JSON.stringify(found) + " END";
  document.body.appendChild(out);
});
</script>"""


def browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(exe: str, page: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--no-proxy-server",
         "--virtual-time-budget=5000", "--window-size=1280,2000", *extra, page.as_uri()],
        capture_output=True, text=True, errors="replace", timeout=120)


def markdown_headings(text: str) -> int:
    return len(re.findall(r"^#{2,3} ", text, flags=re.MULTILINE))


def markdown_plots(text: str) -> int:
    return len(re.findall(r"^!\[[^\]]*\]\([^)]+\.svg\)\s*$", text, flags=re.MULTILINE))


@pytest.fixture(scope="module")
def exe() -> str:
    path = browser()
    if path is None:
        pytest.skip("no headless Chromium (make test installs chromium-headless-shell: "
                    "tools/deps.sh browser)")
    return path


@pytest.fixture(scope="module")
def probed(exe, tmp_path_factory) -> dict:
    page = tmp_path_factory.mktemp("report") / "index.html"
    html = (REPORT / "index.html").read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    proc = chromium(exe, page, "--dump-dom")
    match = re.search(r"PROBE (\{.*?\}) END", proc.stdout, flags=re.DOTALL)
    assert match, f"no probe output; chromium exited {proc.returncode}: {proc.stderr[-2000:]}"
    return json.loads(match.group(1))


def test_every_section_of_the_report_is_laid_out(probed):
    readme = (REPORT / "README.md").read_text(encoding="utf-8")
    assert len(probed["headings"]) == markdown_headings(readme) > 0
    assert any(h.startswith("paper-000") for h in probed["headings"])
    assert any(h.startswith("paper-004") for h in probed["headings"])


def test_every_plot_is_drawn(probed):
    readme = (REPORT / "README.md").read_text(encoding="utf-8")
    assert probed["figures"] == markdown_plots(readme) > 0


def test_the_page_fetches_nothing_from_outside(probed):
    outside = [url for url in probed["resources"] if not url.startswith("file:")]
    assert outside == []


def test_a_screenshot_is_painted(exe, tmp_path):
    shot = tmp_path / "report.png"
    proc = chromium(exe, REPORT / "index.html", f"--screenshot={shot}")
    assert shot.is_file(), f"chromium exited {proc.returncode}: {proc.stderr[-2000:]}"
    import matplotlib.image
    pixels = matplotlib.image.imread(str(shot))
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert pixels.min() < pixels.max()            # not a blank page


def test_the_probe_would_see_a_fetch_from_outside(exe, tmp_path):
    """The check above can fail: a page with an outside image lists its URL."""
    page = tmp_path / "index.html"
    page.write_text('<html><body><h2 id="x">x</h2><img src="http://example.invalid/a.png">'
                    + PROBE + "</body></html>", encoding="utf-8")
    proc = chromium(exe, page, "--dump-dom")
    match = re.search(r"PROBE (\{.*?\}) END", proc.stdout, flags=re.DOTALL)
    assert match
    found = json.loads(match.group(1))
    assert [u for u in found["resources"] if not u.startswith("file:")] == ["http://example.invalid/a.png"]
