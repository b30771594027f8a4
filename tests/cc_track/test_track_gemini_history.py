"""Gemini CLI 0.61 chats (tests/fixtures/agent-history/gemini/, laid out as ~/.gemini)."""
import json
import subprocess

import pytest

from agent_history import GEMINI_HOME, GEMINI_SPOOL, gemini_files
from cc_track import economics, learn, sessions, store
from cc_track.history import read_history
from track_records import CC_TRACK

NOWHERE = "/nonexistent-agent-dir"


def history():
    return read_history({"claude": NOWHERE, "codex": NOWHERE, "gemini": GEMINI_HOME})


def test_gemini_calls_exit_codes_and_outputs():
    (session,) = history().sessions
    assert session.agent == "gemini" and session.cwd == "/home/dev/project"
    assert session.models == {"gemini-2.5-pro": 14}
    calls = [(c.command, c.exit_code) for c in session.calls]
    assert calls[:6] == [("git stauts", 1), ("git status", 0),
                         ("git log --oneline --lenght 3", 128), ("git log --oneline -n 3", 0),
                         ("ack 'def add'", 127), ("rg -n 'def add'", 0)]
    assert session.calls[4].output == "/usr/bin/bash: line 4: ack: command not found\n"
    assert all(c.end_ts >= c.ts for c in session.calls)


def test_gemini_corrections():
    data = learn.build_learn(history())
    assert [(r["class"], r["count"], r["agents"]) for r in data["rules"]][0] == (
        "misspelled-subcommand", 2, ["gemini"])
    # the other three classes were each corrected once in the session: found, not proposed
    assert {p["class"] for p in data["pairs"]} == {
        "misspelled-subcommand", "wrong-flag", "missing-tool", "wrong-directory"}
    assert len(data["rules"]) == 1 and data["held_back"] == {"seen_once": 3, "unsafe": 0}
    assert [r["command"] for r in data["exclude_commands"]] == ["git log"]


def test_gemini_economics_add_up_to_the_tokens_it_holds():
    last = {}
    for path in gemini_files():
        with open(path, encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
                if entry.get("type") == "gemini":
                    last[entry["id"]] = entry["tokens"]  # a message is written twice
    spend = economics.build_spend(history(), {})
    assert spend["messages"] == len(last) == 14
    tokens = spend["tokens"]
    # Gemini counts cached input inside `input`; `thoughts` are billed as output
    assert tokens["input"] + tokens["cache_read"] == sum(t["input"] + t["tool"] for t in last.values())
    assert tokens["cache_read"] == sum(t["cached"] for t in last.values())
    assert tokens["output"] == sum(t["output"] + t["thoughts"] for t in last.values())
    assert tokens["total"] == sum(t["total"] for t in last.values())
    price = economics.DEFAULT_MODEL_PRICES["gemini-2.5-pro"]
    usd = sum(tokens[k] * price[k] for k in economics.KINDS) / 1e6
    assert spend["spend_usd"] == pytest.approx(usd, abs=1e-6)


def test_gemini_session_agrees_with_its_spool(ctxcrl_home):
    with open(GEMINI_SPOOL, "rb") as f:
        subprocess.run([CC_TRACK, "record"], input=f.read(), check=True, capture_output=True)
    with open(GEMINI_SPOOL, encoding="utf-8") as f:
        spool = [json.loads(line) for line in f]
    (row,) = sessions.build_sessions(history(), store.connect())["sessions"]
    assert row["agent"] == "gemini"
    assert row["spool_records"] == len(spool) == 2 and row["through_ctxcrl"] == 2
    assert row["saved_tokens"] == sum(r["saved_tokens"] for r in spool)
