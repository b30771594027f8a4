"""cc-gate: allow, ask or deny a shell command by the agent's own permission rules.

Reads command records (JSON Lines) or bare command lines on stdin, or one command given as an
argument. A record gets "decision" (allow|ask|deny) and "reason" (the rule or construct that
decided); every other field passes through untouched. A bare command is answered with one line:
<decision><TAB><reason>.

Usage:
  cc-gate [--agent=NAME] [--cwd=DIR] [<command>]
  cc-gate --list-rules [--agent=NAME] [--cwd=DIR]
  cc-gate (-h | --help)

Options:
  --agent=NAME   Whose rules apply: claude, cursor, gemini, codex or copilot
                 (default: the record's "agent" field, else claude).
  --cwd=DIR      Where project settings are looked for when the input has no "cwd"
                 (default: the current directory).
  --list-rules   Print every rule that applies (kind, rule, file) and exit.
  -h --help      Show this help.

Rules: deny beats everything; substitutions, file redirects and commands that cannot be parsed
are never auto-allowed; ask rules come next; allow needs an allow rule for every segment;
anything else is "ask" (the agent's own prompt decides).

Exit codes: 0 allow, 2 deny, 3 ask (bare commands; with several, the strictest); 0 in record
mode; 64 on a usage error.
"""
import sys

EXIT_BY_DECISION = {"allow": 0, "deny": 2, "ask": 3}
EXIT_USAGE = 64
_FAST_KEYS = ("--agent", "--cwd")


def parse_fast(argv: list):
    """The hot invocation forms parsed by hand (docopt costs ~25 ms); None → use docopt.

    Must give exactly what docopt gives for the same argv (tests/cc_gate/test_cli.py)."""
    opts = {"--agent": None, "--cwd": None, "--help": False, "--list-rules": False,
            "<command>": None}
    i, n = 0, len(argv)
    while i < n:
        arg = argv[i]
        if arg[:2] == "--":
            name, eq, value = arg.partition("=")
            if name not in _FAST_KEYS or opts[name] is not None:
                return None
            if not eq:
                if i + 1 >= n:
                    return None
                i += 1
                value = argv[i]
            opts[name] = value
        elif arg[:1] == "-" or opts["<command>"] is not None:
            return None
        else:
            opts["<command>"] = arg
        i += 1
    return opts


def parse_args(argv: list):
    opts = parse_fast(argv)
    if opts is not None:
        return opts
    from docopt import DocoptExit, docopt

    try:
        return dict(docopt(__doc__, argv=argv, default_help=False))
    except DocoptExit as exc:
        sys.stderr.write(f"{exc}\n")
        return None


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        opts = parse_args(argv)
        if opts is None:
            return EXIT_USAGE
        if opts["--help"]:
            sys.stdout.write(__doc__)
            return 0
        from .stage import Gate

        gate = Gate(agent=opts["--agent"], cwd=opts["--cwd"])
        if gate.bad_agent:
            sys.stderr.write(f"cc-gate: unknown agent {opts['--agent']!r} "
                             "(claude, cursor, gemini, codex, copilot)\n")
            return EXIT_USAGE
        if opts["--list-rules"]:
            return gate.list_rules()
        return gate.run(opts["<command>"])
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback in the agent's hook
        sys.stderr.write(f"cc-gate: internal error: {exc!r}\n")
        return EXIT_BY_DECISION["ask"]
