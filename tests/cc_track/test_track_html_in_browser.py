"""The HTML report in a real browser: project paths and commands wrap only between words or
after a `/`, never inside a name (headless Chromium measures where each line breaks), and a
graph is titled with its period. The markup rule is also checked without a browser."""
import json
import os
import shutil
import subprocess

import pytest

from ctxcrl import config as cc_config
from cc_track import render, store
from cc_track.html_page import _breakable, render_html
from cc_track.ingest import ingest_spool
from cc_track.report import ReportOptions, build_report
from ctxcrl.spool import append
from track_records import DAY, NOW, make_record

LONG = ["/home/dev/work/clients/acme-corporation/very-long-service-name-backend-api",
        "/home/dev/src/github.com/someone/another-really-long-repository-name", "/home/dev/p"]
COMMAND = "pytest -q tests/integration/test_payment-provider-webhooks.py --maxfail=1"

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)

PROBE = """<script>
const out = [];
for (const code of document.querySelectorAll("td code")) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const lines = []; let top = null, cur = "";
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let i = 0; i < n.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const rect = r.getClientRects()[0];
      if (rect && top !== null && Math.abs(rect.top - top) > 2) { lines.push(cur); cur = ""; }
      if (rect) top = rect.top;
      cur += n.data[i];
    }
  }
  lines.push(cur); out.push(lines);
}
const pre = document.createElement("pre"); pre.id = "lines";
pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
</script>"""


def long_path_report(weekly=False):
    for i, project in enumerate(LONG * 3):
        append(make_record(i, key=COMMAND if i % 2 else "git status", project=project,
                           ts=NOW - (i % 9) * DAY))
    db = store.connect()
    ingest_spool(db, cc_config.load_config(), now=NOW)
    data = build_report(db, ReportOptions("weekly" if weekly else None), NOW)
    projects = build_report(db, ReportOptions(group="project"), NOW)["rows"]
    db.close()
    return data, projects


def test_names_never_break_inside_in_the_markup():
    text = _breakable("~/work/acme-corporation/very-long-name a.b")
    assert text == ('~/<wbr>work/<wbr><span class="seg">acme-corporation</span>/<wbr>'
                    '<span class="seg">very-long-name</span> a.b')


def test_graph_titles_follow_the_period(ctxcrl_home):
    weekly, _ = long_path_report(weekly=True)
    graph = render.render_graph(weekly, render.Style(unicode=False))
    assert graph.splitlines()[0] == "Tokens saved per week"
    weeks = [line.split()[0] for line in graph.splitlines()[1:]]
    assert weeks == ["2026-03-02", "2026-03-09"]  # their Mondays: 9 days of records, 2 weeks
    assert "<h2>Tokens per week</h2>" in render_html(weekly)


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)")
@pytest.mark.parametrize("width", [400, 1100])
def test_paths_wrap_only_after_a_slash_in_a_real_browser(ctxcrl_home, tmp_path, width):
    data, projects = long_path_report()
    page = render_html(data, projects)
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", PROBE + "</body>"))
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},1600",
         "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120)
    assert '<pre id="lines">' in done.stdout, done.stderr[-2000:]
    cells = json.loads(done.stdout.split('<pre id="lines">')[1].split("</pre>")[0])
    shown = {"".join(lines) for lines in cells}
    assert set(LONG) <= shown and COMMAND in shown
    wrapped = 0
    for lines in cells:
        for line in lines[:-1]:
            assert line.endswith(("/", " ")), lines  # broken after a slash or a space only
            wrapped += 1
    if width == 400:
        assert wrapped, cells  # narrow: the long paths did wrap (at slashes)
