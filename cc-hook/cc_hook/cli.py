"""cc-hook — install contextcrawler into your coding agents, check it, take it back.

Usage:
  cc-hook init [--agent=NAME]... [--global | --project] [--link] [--dry-run]
  cc-hook uninstall [--agent=NAME]... [--global | --project] [--purge] [--dry-run]
  cc-hook verify
  cc-hook status
  cc-hook test <agent> <command> [--run]
  cc-hook decode <agent>
  cc-hook encode <agent>
  cc-hook (-h | --help)
  cc-hook --version

Commands:
  init        install the hook for each --agent (default: claude), for your user (default)
              or for the project around the current directory, with a note telling the
              model how to read compacted output; then say which of 50 typical commands
              reach the model compacted, and the allow rules that would add more.
  uninstall   take back everything init installed: by default every agent, for your user
              and in every project; settings files get their original bytes back, and the
              backups init made go too.
  verify      check every installed hook, and the agent settings that decide whether it
              runs (hooks switched off, another hook on the same tool, an env block over
              contextcrawler's variables): PASS / WARN / FAIL with the fix; exit 1 on any
              FAIL. Then the same summary of typical commands as init.
  status      show what is installed where.
  test        show, in words, what the agent will do with <command> now: run it filtered
              (and which command it runs), refuse it, or decide itself, and for a command it
              asks about whether it is filtered once approved; with --run, also run it and
              show the output the model gets.
  decode      (hook stage) read the agent's hook event on stdin, write a command record.
  encode      (hook stage) read the final command record on stdin, write the agent's answer.

Agents: @HOOK_AGENTS@ (hooks); @PLUGIN_AGENTS@ (plugins);
        @RULES_AGENTS@ (rules files, always in the project).

Options:
  --agent=NAME  an agent to install / uninstall (repeatable).
  --global      your user's settings under $HOME (init's default).
  --project     the project's settings (the git work tree around the current directory).
  --link        when the agent's shell cannot find cc-filter, link it into a folder on that
                shell's PATH without asking (init asks when run in a terminal).
  --purge       also delete the tracking data (tracking.db, spool, tee files).
  --run         run the command the agent would run and show what the model receives.
  --dry-run     print what would change, write nothing.
  -h --help     show this help.
  --version     show the version.

Exit codes: 0 ok; 1 a step failed (malformed settings file, FAIL in verify, no hook
installed to test); 64 usage error (an unknown agent too). decode/encode always exit 0.
"""
import sys

from ctxcrl.console import console

from .agents import HOOK_AGENTS, PLUGIN_AGENTS, RULES_AGENTS

for _name, _agents in (("@HOOK_AGENTS@", HOOK_AGENTS), ("@PLUGIN_AGENTS@", PLUGIN_AGENTS),
                       ("@RULES_AGENTS@", RULES_AGENTS)):  # the registry's names
    __doc__ = __doc__.replace(_name, ", ".join(_agents))

from ctxcrl.console import EXIT_USAGE, VERSION  # noqa: F401  (VERSION: what --version prints)
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
    from ctxcrl.console import parse_usage

    try:
        args = parse_usage("cc-hook", __doc__, argv)
    except BrokenPipeError:  # `cc-hook --help | head`
        return 0
    if isinstance(args, int):
        return args
    if args["decode"] or args["encode"]:
        from .stage import run

        return run("decode" if args["decode"] else "encode", args["<agent>"])
    from . import commands

    try:
        return commands.dispatch(args)
    except BrokenPipeError:  # `cc-hook test … | head -1`: the reader has what it wanted
        return 0


run = console(main)  # the console script: main(), then no interpreter teardown
