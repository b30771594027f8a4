"""cc-track session and the real-spend economics, on real Claude Code sessions and the spool
their `cc-filter run` calls wrote (tests/fixtures/agent-history/claude/)."""
import json
import os
import shlex
import subprocess

import pytest

from agent_history import CLAUDE_PROJECTS, claude_files, place, spool_records
from cc_track import economics, sessions, store
from cc_track.history import read_history
from track_records import CC_TRACK

NO_CODEX = "/nonexistent-codex-home"


@pytest.fixture
def tracked(tmp_path, ctxcrl_home):
    """tracking.db holding the fixture spool (as recorded: /home/dev/project)."""
    with open(os.path.join(os.path.dirname(CLAUDE_PROJECTS), "spool.jsonl"), "rb") as f:
        subprocess.run([CC_TRACK, "record"], input=f.read(), check=True, capture_output=True)
    db = store.connect()
    yield db
    db.close()


def history():
    return read_history({"claude": CLAUDE_PROJECTS, "codex": NO_CODEX})


def test_session_rows_agree_with_the_spool(tracked):
    spool = spool_records()
    data = sessions.build_sessions(history(), tracked)
    assert data["spool_records"] == len(spool) == 6 and data["unlinked_spool_records"] == 0
    by_time = sorted(data["sessions"], key=lambda r: r["start"])
    for row, session in zip(by_time, history().sessions):
        mine = [r for r in spool if session.start <= r["ts"] <= session.end]
        assert row["spool_records"] == len(mine)
        assert row["saved_tokens"] == sum(r["saved_tokens"] for r in mine)
        assert row["raw_tokens"] == sum(r["raw_tokens"] for r in mine)
        assert row["output_tokens"] == sum(r["output_tokens"] for r in mine)
    first, second = by_time
    # without the hook: the two commands the model itself ran through `cc-filter run`
    assert (first["commands"], first["through_ctxcrl"], first["spool_records"]) == (13, 2, 2)
    # with the hook: git status, git log -n 5, git diff --stat, ls -la were rewritten
    assert (second["commands"], second["through_ctxcrl"], second["spool_records"]) == (6, 4, 4)
    assert second["share_pct"] == 66.7 and second["top_missed"] == []


def test_each_record_links_to_the_call_that_produced_it(tracked):
    hist = history()
    linked, unlinked, records = sessions.link_history(hist, tracked)
    assert not unlinked
    calls = {c.id: c for s in hist.sessions for c in s.calls}
    for call_id, recs in linked.items():
        call = calls[call_id]
        ran = shlex.split(call.rewritten or call.command)
        ran = ran[ran.index("run") + 1:]  # what followed `cc-filter run`
        for record in recs:
            assert shlex.split(record["command"]) == ran
            assert call.ts - 1 <= record["ts"] <= call.end_ts + 1


def test_the_hook_rewrite_is_read_from_the_transcript():
    second = history().sessions[1]
    rewritten = {c.command: c.rewritten for c in second.calls}
    assert rewritten["git status"] == "/opt/contextcrawler/bin/cc-filter run git status"
    assert rewritten["CTXCRL_DISABLED=1 git log -n 5"] is None
    assert rewritten["git stauts"] is None  # no filter for a misspelling: left alone


def test_without_tracking_a_session_still_counts_its_commands():
    data = sessions.build_sessions(history(), None)
    assert [r["through_ctxcrl"] for r in data["sessions"]] == [2, 4]  # from the commands alone
    assert all(r["saved_tokens"] == 0 for r in data["sessions"])


# --- economics of real usage -------------------------------------------------------------------

def raw_usage(path):
    """The usage a transcript holds, read independently: one count per API message id."""
    seen = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            message = entry.get("message") or {}
            if entry.get("type") == "assistant" and "usage" in message:
                seen[message["id"]] = message["usage"]
    return seen


def test_a_transcripts_economics_add_up_to_the_tokens_it_holds():
    totals = {"input": "input_tokens", "output": "output_tokens",
              "cache_read": "cache_read_input_tokens",
              "cache_write": "cache_creation_input_tokens"}
    hist = history()
    spend = economics.build_spend(hist, {})
    expected = {k: 0 for k in totals}
    messages = 0
    for path in claude_files():
        usage = raw_usage(path)
        messages += len(usage)
        for counts in usage.values():
            for kind, field in totals.items():
                expected[kind] += counts[field]
    assert spend["messages"] == messages == 21
    assert {k: spend["tokens"][k] for k in totals} == expected
    assert spend["tokens"]["total"] == sum(expected.values())
    price = economics.DEFAULT_MODEL_PRICES["claude-sonnet-4.5"]
    usd = sum(expected[k] * price[k] for k in totals) / 1e6
    assert spend["spend_usd"] == pytest.approx(usd, abs=1e-6)
    (model,) = spend["models"]
    assert model["model"] == "claude-sonnet-4-5-20250929" and model["priced_as"] == "claude-sonnet-4.5"
    # per day and per project: the same spend, split
    assert sum(d["spend_usd"] for d in spend["days"]) == pytest.approx(usd, abs=1e-5)
    assert sum(p["spend_usd"] for p in spend["projects"]) == pytest.approx(usd, abs=1e-5)


def test_savings_as_a_share_of_real_spend(tracked):
    spend = economics.build_spend(history(), {}, tracked)
    saved = sum(r["saved_tokens"] for r in spool_records())
    (day,) = spend["days"]
    assert day["saved_tokens"] == saved == 175
    assert day["saved_usd"] == pytest.approx(saved * 3.00 / 1e6)
    assert day["savings_share_pct"] == pytest.approx(day["saved_usd"] / day["spend_usd"] * 100,
                                                     abs=0.01)
    (project,) = spend["projects"]
    assert project["project"] == "/home/dev/project" and project["saved_tokens"] == saved


def test_config_overrides_the_price_table():
    base = economics.build_spend(history(), {})
    tokens = base["tokens"]
    only_input = economics.build_spend(history(), {"economics": {"claude-sonnet-4.5": 6.0}})
    assert only_input["spend_usd"] == pytest.approx(base["spend_usd"] + tokens["input"] * 3.0 / 1e6)
    full = economics.build_spend(history(), {"economics": {"claude-sonnet-4.5": {
        "input": 1, "output": 1, "cache_read": 1, "cache_write": 1}}})
    assert full["spend_usd"] == pytest.approx(tokens["total"] / 1e6)


def test_an_unknown_model_is_reported_not_priced():
    hist = history()
    for s in hist.sessions:
        for u in s.usage:
            u.model = "my-local-model"
    spend = economics.build_spend(hist, {})
    assert spend["spend_usd"] == 0 and spend["unpriced_models"] == ["my-local-model"]
    priced = economics.build_spend(hist, {"economics": {"my-local-model": {"input": 1.0,
                                                                            "output": 2.0}}})
    assert priced["unpriced_models"] == [] and priced["spend_usd"] > 0


@pytest.mark.parametrize("recorded, priced_as", [
    ("claude-sonnet-4-5-20250929", "claude-sonnet-4.5"),
    ("claude-opus-4-1", "claude-opus-4.1"),
    ("claude-haiku-4.5", "claude-haiku-4.5"),
    ("gpt-5.1-codex-max", "gpt-5.1-codex"),
    ("GPT-5", "gpt-5"),
    ("gemini-2.5-pro", "gemini-2.5-pro"),
    ("llama-3", None),
])
def test_model_names_as_agents_record_them(recorded, priced_as):
    assert economics.canonical_model(recorded, economics.model_prices({})) == priced_as


def test_the_price_table_is_dated_data():
    with open(os.path.join(os.path.dirname(economics.__file__), "prices.json")) as f:
        data = json.load(f)
    assert data["as_of"] == economics.PRICES_AS_OF
    assert all(set(row) == set(economics.KINDS) for row in data["models"].values())


# --- the CLI -------------------------------------------------------------------------------------

@pytest.fixture
def project(tmp_path, ctxcrl_home):
    root = tmp_path / "project"
    root.mkdir()
    placed = place(tmp_path, str(root))
    env = dict(os.environ, CLAUDE_CONFIG_DIR=placed["claude_dir"], CODEX_HOME=NO_CODEX)
    with open(placed["spool"], "rb") as f:
        subprocess.run([CC_TRACK, "record"], input=f.read(), check=True, env=env,
                       capture_output=True)
    return root, env


def run_here(cwd, env, *args):
    return subprocess.run([CC_TRACK, *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_cli_session_formats(project):
    root, env = project
    table = run_here(root, env, "session", "--since=2026-11-01")
    assert table.returncode == 0, table.stderr
    assert "2 agent sessions" in table.stdout and "67 %" in table.stdout
    data = json.loads(run_here(root, env, "session", "--since=2026-11-01",
                               "--format=json").stdout)
    assert data["schema"] == "ctxcrl.session/1"
    assert [r["saved_tokens"] for r in data["sessions"]] == [26, 149]
    csv = run_here(root, env, "session", "--since=2026-11-01", "--format=csv").stdout
    lines = csv.splitlines()
    assert lines[0] == ",".join(sessions.CSV_COLUMNS) and len(lines) == 3


def test_cli_session_bad_format(project):
    root, env = project
    out = run_here(root, env, "session", "--format=xml")
    assert out.returncode == 64 and "--format=xml" in out.stderr and "Traceback" not in out.stderr


def test_cli_economics_shows_real_spend(project):
    root, env = project
    data = json.loads(run_here(root, env, "economics", "--since=2026-11-01",
                               "--format=json").stdout)
    assert data["spend"]["messages"] == 21 and data["spend"]["days"][0]["saved_tokens"] == 175
    text = run_here(root, env, "economics", "--since=2026-11-01").stdout
    assert "Real spend in 2 agent sessions" in text and "Share of spend" in text


def test_malformed_history_lines_are_skipped_and_counted(tmp_path):
    projects = tmp_path / "projects" / "-p"
    projects.mkdir(parents=True)
    first = history().sessions[0]  # the session without the hook: 13 calls
    src = first.path
    lines = open(src, encoding="utf-8").read().splitlines(keepends=True)
    (projects / "s.jsonl").write_text("not json\n[1]\n" + "".join(lines) + lines[-1][:40])
    hist = read_history({"claude": str(tmp_path / "projects"), "codex": NO_CODEX})
    assert hist.malformed == 3 and len(hist.sessions[0].calls) == 13


def test_cli_html_report_has_the_sessions(project, tmp_path):
    root, env = project
    page = tmp_path / "report.html"
    out = run_here(root, env, "report", "--since=2026-11-01", f"--html={page}")
    assert out.returncode == 0, out.stderr
    html = page.read_text()
    assert "<h2>Agent sessions</h2>" in html
    section = html[html.index("<h2>Agent sessions</h2>"):]
    older, newer = (s.id[:8] for s in history().sessions)
    assert older in section and newer in section and "git status ×2" in section
    assert section.index(newer) < section.index(older)  # newest first
