"""Codex 0.171 rollouts (tests/fixtures/agent-history/codex/): read like Claude Code's."""
import json
import subprocess

import pytest

from agent_history import CODEX_SESSIONS, CODEX_SPOOL, codex_files
from cc_track import economics, learn, sessions, store
from cc_track.history import read_history
from track_records import CC_TRACK


def history():
    return read_history({"claude": "/nonexistent-claude-dir", "codex": CODEX_SESSIONS})


def test_codex_calls_exit_codes_and_outputs():
    (session,) = history().sessions
    assert session.agent == "codex" and session.cwd == "/home/dev/project"
    assert session.models == {"gpt-5.1-codex": 14}
    calls = [(c.command, c.exit_code) for c in session.calls]
    assert calls[:6] == [("git stauts", 1), ("git status", 0),
                         ("git log --oneline --lenght 3", 128), ("git log --oneline -n 3", 0),
                         ("ack 'def add'", 127), ("rg -n 'def add'", 0)]
    ack = session.calls[4]
    assert ack.output == "/bin/bash: line 1: ack: command not found\n"  # the header cut off


def test_codex_corrections_give_the_same_rules_as_claude():
    data = learn.build_learn(history())
    assert [(r["class"], r["count"]) for r in data["rules"]][0] == ("misspelled-subcommand", 2)
    # the other three classes were each corrected once in the session: found, not proposed
    assert {p["class"] for p in data["pairs"]} == {
        "misspelled-subcommand", "wrong-flag", "missing-tool", "wrong-directory"}
    assert len(data["rules"]) == 1 and data["held_back"] == {"seen_once": 3, "unsafe": 0}
    assert data["rules"][0]["agents"] == ["codex"]
    assert [r["command"] for r in data["exclude_commands"]] == ["git log"]


def test_codex_economics_add_up_to_its_token_usage_records():
    expected = {"input": 0, "cached": 0, "output": 0}
    responses = 0
    for path in codex_files():
        with open(path, encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
                if entry["type"] == "token_usage_record":
                    usage = entry["payload"]["usage"]
                    responses += 1
                    expected["input"] += usage["input_tokens"]
                    expected["cached"] += usage["cached_input_tokens"]
                    expected["output"] += usage["output_tokens"]
    spend = economics.build_spend(history(), {})
    assert spend["messages"] == responses == 14
    tokens = spend["tokens"]
    # OpenAI counts cached input inside input_tokens: uncached + cached = the recorded input
    assert tokens["input"] + tokens["cache_read"] == expected["input"]
    assert tokens["cache_read"] == expected["cached"] and tokens["output"] == expected["output"]
    price = economics.DEFAULT_MODEL_PRICES["gpt-5.1-codex"]
    usd = ((expected["input"] - expected["cached"]) * price["input"]
           + expected["cached"] * price["cache_read"] + expected["output"] * price["output"]) / 1e6
    assert spend["spend_usd"] == pytest.approx(usd, abs=1e-6)


def test_codex_session_agrees_with_its_spool(ctxcrl_home):
    with open(CODEX_SPOOL, "rb") as f:
        subprocess.run([CC_TRACK, "record"], input=f.read(), check=True, capture_output=True)
    with open(CODEX_SPOOL, encoding="utf-8") as f:
        spool = [json.loads(line) for line in f]
    db = store.connect()
    (row,) = sessions.build_sessions(history(), db)["sessions"]
    assert row["spool_records"] == len(spool) == 2 and row["through_ctxcrl"] == 2
    assert row["saved_tokens"] == sum(r["saved_tokens"] for r in spool)
