"""Every report format on one fixed database, pinned by snapshots (tests/cc_track/snapshots/).
Update with: pytest tests/cc_track/test_track_reports.py --snapshot-update"""
import csv
import io
import json
import os

import pytest

from cc_track import render, store
from cc_track.economics import build_economics, render_economics
from cc_track.html_page import render_html
from cc_track.report import ReportOptions, build_report, parse_since
from track_records import DAY, NOW

SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots")


@pytest.fixture
def snap(snapshot):
    snapshot.snapshot_dir = SNAPSHOTS
    return snapshot


def report(db, **options):
    return build_report(db, ReportOptions(**options), now=NOW)


TABLES = [
    ("report_table.txt", {}),
    ("report_daily.txt", {"period": "daily"}),
    ("report_weekly.txt", {"period": "weekly"}),
    ("report_monthly.txt", {"period": "monthly"}),
    ("report_by_command.txt", {"group": "command"}),
    ("report_by_project.txt", {"group": "project"}),
    ("report_daily_by_project.txt", {"period": "daily", "group": "project"}),
    ("report_history.txt", {"history": 5}),
    ("report_since.txt", {"since": NOW - 3 * DAY}),
]


@pytest.mark.parametrize("name, options", TABLES, ids=[t[0] for t in TABLES])
def test_table(fixed_db, snap, name, options):
    snap.assert_match(render.render_table(report(fixed_db, **options)) + "\n", name)


def test_table_with_graph(fixed_db, snap):
    snap.assert_match(render.render_table(report(fixed_db), graph=True) + "\n",
                      "report_graph.txt")


def test_graph_ascii_fallback(fixed_db, snap):
    text = render.render_graph(report(fixed_db), render.Style(unicode=False))
    snap.assert_match(text + "\n", "report_graph_ascii.txt")


def test_table_on_a_terminal_has_colour_and_outline(fixed_db, snap):
    text = render.render_table(report(fixed_db), render.Style(color=True), graph=True)
    assert "\x1b[" in text
    snap.assert_match(text + "\n", "report_table_tty.txt")


def test_plain_table_has_no_escape_codes(fixed_db):
    for _name, options in TABLES:
        assert "\x1b" not in render.render_table(report(fixed_db, **options), graph=True)


JSONS = [
    ("report.json", {}),
    ("report_daily_by_command.json", {"period": "daily", "group": "command", "history": 3}),
]


@pytest.mark.parametrize("name, options", JSONS, ids=[j[0] for j in JSONS])
def test_json(fixed_db, snap, name, options):
    text = render.render_json(report(fixed_db, **options))
    data = json.loads(text)
    assert data["schema"] == "ctxcrl.report/1"
    snap.assert_match(text + "\n", name)


CSVS = [
    ("report.csv", {}),
    ("report_weekly_by_project.csv", {"period": "weekly", "group": "project"}),
    ("report_history.csv", {"history": 4}),
]


@pytest.mark.parametrize("name, options", CSVS, ids=[c[0] for c in CSVS])
def test_csv(fixed_db, snap, name, options):
    text = render.render_csv(report(fixed_db, **options))
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == render.CSV_COLUMNS
    assert all(len(r) == len(render.CSV_COLUMNS) for r in rows)
    snap.assert_match(text, name)


def test_html(fixed_db, snap):
    data = report(fixed_db)
    projects = report(fixed_db, group="project")["rows"]
    page = render_html(data, projects, build_economics(data["totals"]["saved_tokens"], {},
                                                       "claude-sonnet-4.5"))
    for forbidden in ("<script", "http://", "https://", "@import", "url("):
        assert forbidden not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<svg" in page
    snap.assert_match(page, "report.html")


def test_economics(fixed_db, snap):
    saved = report(fixed_db)["totals"]["saved_tokens"]
    config = {"economics": {"claude-sonnet-4.5": 3.5, "my-local-model": 0.1}}
    snap.assert_match(render_economics(build_economics(saved, config)) + "\n", "economics.txt")
    snap.assert_match(render.render_json(build_economics(saved, {}, "GPT-5")) + "\n",
                      "economics_model.json")


def test_negative_savings_are_shown_never_hidden(fixed_db):
    data = report(fixed_db)
    [grew] = data["grew"]
    assert grew["filter"] == "json" and grew["extra_tokens"] < 0
    table = render.render_table(data)
    assert "Filters that made output bigger" in table and "json" in table
    assert any(r["group"] == "jq ." and r["saved_tokens"] < 0 for r in
               report(fixed_db, group="command")["rows"])


def test_totals_add_up(fixed_db):
    data = report(fixed_db, group="command")
    t = data["totals"]
    assert t["saved_tokens"] == t["raw_tokens"] - t["output_tokens"]
    assert sum(r["saved_tokens"] for r in data["rows"]) == t["saved_tokens"]
    assert sum(r["commands"] for r in data["rows"]) == t["commands"] == 15
    assert sum(d["commands"] for d in data["daily"]) == 15


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "since"])
def test_empty_database(ctxcrl_home, snap, fmt):
    db = store.connect()
    data = build_report(db, ReportOptions(since=NOW - DAY if fmt == "since" else None), now=NOW)
    text = {"table": render.render_table, "since": render.render_table,
            "json": render.render_json, "csv": render.render_csv}[fmt](data)
    if fmt in ("table", "since"):
        assert text.count("\n") == 0  # one line
    snap.assert_match(text.rstrip("\n") + "\n", f"empty_{fmt}.txt")


@pytest.mark.parametrize("text, expected", [
    ("2026-03-01", 1772323200.0),
    ("2026-03-01T09:30", 1772357400.0),
    ("7", NOW - 7 * DAY),
    ("7d", NOW - 7 * DAY),
    ("0.5d", NOW - 0.5 * DAY),
    ("2026-03-01T00:00:00+01:00", 1772319600.0),
    (None, None),
])
def test_parse_since(text, expected):
    assert parse_since(text, NOW) == expected


@pytest.mark.parametrize("text", ["yesterday", "-3", "2026-13-01", "7w"])
def test_parse_since_rejects(text):
    with pytest.raises(ValueError, match="--since"):
        parse_since(text, NOW)
