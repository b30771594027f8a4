"""cc-rewrite: run each command that has a filter through `cc-filter run`.

Reads command records (JSON Lines) or bare command lines on stdin, or one command given as an
argument. A record gets "rewritten" (absent when nothing changed, and never on a record the gate
denied); every other field passes through untouched. A bare command is answered with the
command to run: `git status && ls | wc -l` → `cc-filter run git status && ls | wc -l`.

Usage:
  cc-rewrite [--explain] [--cwd=DIR] [<command>]
  cc-rewrite (-h | --help)
  cc-rewrite --version

Options:
  --explain   Print the command to run, then one line per segment: what was rewritten (and
              with which filter) or why it stays raw.
  --cwd=DIR   Where project filters are looked for when the input has no "cwd"
              (default: the current directory).
  -h --help   Show this help.
  --version   Show the version.

Only commands with a filter in cc-filter's catalogue are rewritten (`cc-filter list`); one
with none gets the generic fallback filter (long output cut to head, errors and tail) when it
is an executable on the PATH and not a shell builtin, interactive or long-running (`cc-filter
which <command>` says; `fallback_filter = false` under [hooks] turns it off). Never
rewritten: heredocs, $((…)), substitutions, file redirects (/dev/null too), anything inside
if/for/while/case, functions, ( ) and { }, sudo, ssh, xargs, watch, bash -c, eval, commands
already going through cc-filter, a CTXCRL_DISABLED=… prefix, [hooks] exclude_commands, gh with
--json/--jq/--template, cat/head/tail forms the read filter cannot honour. In a pipe only the
producer (when every later stage is cat/head/tail) or a final grep/rg is rewritten — except an
environment listing (env, printenv: its secrets are masked), rewritten whatever reads it.

Environment: CTXCRL_FILTER_BIN (or `filter_bin` in the config's [hooks]) names the cc-filter
program to insert, e.g. an absolute path when cc-filter is not on the agent shell's PATH.
Records are left unchanged when that program cannot be found (not on the PATH, not an
executable file).

Exit codes: 0 rewritten, 1 unchanged (bare commands; with several, 0 when any was rewritten);
0 in record mode; 64 on a usage error.
"""
import sys

from ctxcrl.console import console
from cc_peel.record import fast_options, stage_main

from .rewrite import EXIT_REWRITTEN, EXIT_UNCHANGED
_OPTIONS = {"flags": ("--explain",), "values": ("--cwd",), "others": ("--help", "--version")}


def parse_fast(argv: list):
    """The hot forms parsed by hand (tests/cc_rewrite/test_rewrite_cli.py: same result as
    docopt); None → docopt decides."""
    return fast_options(argv, **_OPTIONS)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return stage_main("cc-rewrite", argv, __doc__, _OPTIONS, _answer, EXIT_UNCHANGED)


def _answer(opts: dict) -> int:
    from .rewrite import Rewriter

    return Rewriter(cwd=opts["--cwd"], explain=opts["--explain"]).run(opts["<command>"])


run = console(main)  # the console script: main(), then no interpreter teardown
