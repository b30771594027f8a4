"""cc-hook — agent adapters: the hook pipeline's first and last stages, and hook install,
uninstall, verify, status and test (DESIGN §8).

Usage:
  cc-hook decode <agent>
  cc-hook encode <agent>
  cc-hook init [--agent=NAME]... [--global | --project] [--dry-run]
  cc-hook uninstall [--agent=NAME]... [--global | --project] [--dry-run]
  cc-hook verify
  cc-hook status
  cc-hook test <agent> <command>
  cc-hook (-h | --help)
  cc-hook --version

Commands:
  decode <agent>   read the agent's hook event on stdin, write a command record (JSON line).
  encode <agent>   read the final command record on stdin, write the agent's JSON answer.
  init             install the hook for each --agent (default: claude), globally (default) or
                   for the project around the current directory.
  uninstall        remove what `init` installed for each --agent (default: every installed one).
  verify           check every installed hook: PASS / WARN / FAIL; exit 1 on any FAIL.
  status           show what is installed where.
  test             send a synthetic event for <command> through the installed hook, as the
                   agent would, and print the answer.

Agents: claude, cursor, copilot, gemini, codex (hooks); opencode (plugin);
        cline, windsurf (rules files, always in the project).

Options:
  --agent=NAME  an agent to install / uninstall (repeatable).
  --global      user-wide settings under $HOME (default).
  --project     the project's settings (the git work tree around the current directory).
  --dry-run     print what would change, write nothing.
  -h --help     show this help.
  --version     show the version.

Exit codes: 0 ok; 1 a step failed (malformed settings file, FAIL in verify, hook not
installed for test); 2 usage error. decode/encode always exit 0.
"""
import sys

from cc_peel.console import console

VERSION = "0.1.0"
_STAGES = ("decode", "encode")


def fast_args(argv: list[str]) -> dict | None:
    """docopt's result for the hot forms `decode <agent>` / `encode <agent>`, parsed by hand
    (docopt costs ~25 ms); None for anything else, which then goes through docopt."""
    if len(argv) != 2 or argv[0] not in _STAGES or not argv[1] or argv[1].startswith("-"):
        return None
    return {"decode": argv[0] == "decode", "encode": argv[0] == "encode", "<agent>": argv[1]}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    fast = fast_args(argv)
    if fast is not None:
        from .stage import run

        return run("decode" if fast["decode"] else "encode", fast["<agent>"])
    return _main_slow(argv)


def _main_slow(argv: list[str]) -> int:
    from docopt import DocoptExit, docopt

    try:
        args = docopt(__doc__, argv=argv, version=f"cc-hook {VERSION}")
    except DocoptExit as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    except BrokenPipeError:  # `cc-hook --help | head`
        return 0
    if args["decode"] or args["encode"]:
        from .stage import run

        return run("decode" if args["decode"] else "encode", args["<agent>"])
    from . import commands

    return commands.dispatch(args)


run = console(main)  # the console script: main(), then no interpreter teardown
