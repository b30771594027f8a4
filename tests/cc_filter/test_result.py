"""`cc-filter result`: the post-execution stage keeps every runner rule (ARCHITECTURE §6.2) and
never makes what the agent shows worse."""
import json
import os
import subprocess
import sys

import pytest

from cc_filter.run.result import filter_result

BIN = os.path.dirname(sys.executable)
# Real `git status` output (git 2.39, this repository's test project), long format.
STATUS = ('On branch main\nChanges not staged for commit:\n'
          '  (use "git add <file>..." to update what will be committed)\n'
          '  (use "git restore <file>..." to discard changes in working directory)\n'
          '\tmodified:   calc.py\n\nUntracked files:\n'
          '  (use "git add <file>..." to include in what will be committed)\n'
          '\tnotes_draft.txt\n\n'
          'no changes added to commit (use "git add" and/or "git commit -a")\n')


def record(**fields):
    rec = {"command": "git status", "cwd": "/", "filter": "git-status",
           "argv": ["git", "status"], "key": "git status", "exit_code": 0, "output": STATUS}
    rec.update(fields)
    return rec


def test_filtered_text_replaces_the_output(ctxcrl_home):
    rec = filter_result(record())
    # the 4 advice lines dropped are counted, and the raw output is kept in the tee dir
    assert rec["filtered"].startswith("On branch main\nunstaged:\n  M calc.py\nuntracked:\n"
                                      "  notes_draft.txt\n... (4 advice lines omitted)\n"
                                      "[full output: ")


def test_the_full_output_file(ctxcrl_home, tmp_path):
    path = tmp_path / "saved.txt"
    path.write_text(STATUS)
    rec = filter_result(record(output=None, output_path=str(path), shown_chars=400))
    assert "M calc.py" in rec["filtered"]
    assert "filtered" not in filter_result(record(output=None, output_path=str(tmp_path / "no")))


def test_never_worse_than_what_the_agent_shows(ctxcrl_home):
    assert "filtered" not in filter_result(record(shown_chars=20))


def test_the_argv_reaches_the_filter(ctxcrl_home):
    short = " M calc.py\n?? notes_draft.txt\n"
    assert "filtered" not in filter_result(record(argv=["git", "status", "--short"],
                                                  output=short))


def test_a_failure_stays_visible(ctxcrl_home):
    out = "".join(f"line {n}\n" for n in range(200)) + "boom\n"
    rec = filter_result(record(filter="read", argv=["cat", "x"], key="cat x", exit_code=3,
                               output=out))
    assert "filtered" not in rec or "boom" in rec["filtered"]


@pytest.mark.parametrize("rec", [
    {"command": "git status"},
    record(filter="no-such-filter"),
    record(exit_code="0"),
    record(output=None),
])
def test_unusable_records_pass_unchanged(ctxcrl_home, rec):
    assert filter_result(dict(rec)) == rec


def test_the_stage_tracks_and_passes_records(ctxcrl_home):
    done = subprocess.run([os.path.join(BIN, "cc-filter"), "result"],
                          input=json.dumps(record()) + "\n", capture_output=True, text=True,
                          env=dict(os.environ, CTXCRL_HOME=str(ctxcrl_home)))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["filtered"].startswith("On branch main\nunstaged:")
    spool = [json.loads(line) for line in (ctxcrl_home / "spool.jsonl").read_text().splitlines()]
    assert spool[-1]["filter"] == "git-status" and spool[-1]["command"] == "git status"
    assert spool[-1]["mode"] == "pipe" and spool[-1]["exit_code"] == 0
    for body in ("", "not json\n"):
        done = subprocess.run([os.path.join(BIN, "cc-filter"), "result"], input=body,
                              capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout == body
