"""cc-gate: allow, ask or deny a shell command by the agent's own permission rules.

Reads command records (JSON Lines) or bare command lines on stdin, or one command given as an
argument. A record gets "decision" (allow|ask|deny) and "reason" (the rule or construct that
decided); every other field passes through untouched. Output mirrors the input: a bare command
is passed on as it is (an empty line when denied, so `cc-gate | cc-rewrite` never rewrites a
denied command), and the verdict goes to stderr as one line: cc-gate: <decision>: <reason>.

Usage:
  cc-gate [--agent=NAME] [--cwd=DIR] [<command>]
  cc-gate --list-rules [--agent=NAME] [--cwd=DIR]
  cc-gate (-h | --help)
  cc-gate --version

Agents: @AGENTS@.

Options:
  --agent=NAME   Whose rules apply, one of the agents above (default: the record's
                 "agent" field, else claude; a record that names another agent is never
                 allowed: its command is asked about).
  --cwd=DIR      Where project settings are looked for when the input has no "cwd"
                 (default: the current directory).
  --list-rules   Print every rule that applies (kind, rule, file) and exit.
  -h --help      Show this help.
  --version      Show the version.

Rules: deny beats everything; substitutions, file redirects and commands that cannot be parsed
are never auto-allowed; ask rules come next; allow needs an allow rule for every segment;
anything else is "ask" (the agent's own prompt decides).

Exit codes: 0 allow, 2 deny, 3 ask (bare commands; with several, the strictest); 0 in record
mode; 64 on a usage error.
"""
import sys

from ctxcrl.console import EXIT_USAGE, console
from cc_peel.record import fast_options, stage_main

from .agents import AGENTS

__doc__ = __doc__.replace("@AGENTS@", ", ".join(AGENTS))  # the registry's names

from .decision import EXIT_BY_DECISION
_OPTIONS = {"values": ("--agent", "--cwd"), "others": ("--help", "--list-rules", "--version")}


def parse_fast(argv: list):
    """The hot forms parsed by hand (tests/cc_gate/test_gate_cli.py: same result as docopt);
    None → docopt decides."""
    return fast_options(argv, **_OPTIONS)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # an internal error may hide a deny: never allow, let the agent ask
    return stage_main("cc-gate", argv, __doc__, _OPTIONS, _answer, EXIT_BY_DECISION["ask"])


def _answer(opts: dict) -> int:
    from .agents import AGENTS, unknown_agent_message
    from .stage import Gate

    gate = Gate(agent=opts["--agent"], cwd=opts["--cwd"])
    if gate.bad_agent:
        sys.stderr.write(f"cc-gate: {unknown_agent_message(opts['--agent'], AGENTS)}\n")
        return EXIT_USAGE
    if opts["--list-rules"]:
        return gate.list_rules()
    return gate.run(opts["<command>"])


run = console(main)  # the console script: main(), then no interpreter teardown
