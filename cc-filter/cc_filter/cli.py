"""cc-filter — run a command (or read a pipe) and give the agent a short, faithful output.

Usage:
  cc-filter run [--filter=NAME] [--] <argv>...
  cc-filter run --then=PIPE [--filter=NAME] [--] <argv>...
  cc-filter list [--all] [--verbose]
  cc-filter which [--] <command>...
  cc-filter show <name>
  cc-filter test [<name>] [--require-all] [--fixtures=DIR]
  cc-filter trust [<path>] [--yes]
  cc-filter untrust <path>
  cc-filter raw [<file>]
  cc-filter <name> [--exit-code=N]
  cc-filter result
  cc-filter -h | --help
  cc-filter --version

Commands:
  run        Run <argv>, filter its output, exit with its exit code. No filter for the
             command: plain passthrough (stdin, stdout, stderr inherited).
  <name>     Filter stdin with the named filter (for pipes): `git status | cc-filter git-status`.
  result     Filter a command's result after it ran: one JSON record on stdin (its command,
             exit_code, output or output_path, and the filter to use), the same record on
             stdout with "filtered" added when the model should get the filtered text.
             The post-execution hooks of OpenCode and Copilot CLI run it.
  list       Every filter: its name, the commands it matches and its kind (project and
             user filters first).
  which      Which filter a command gets, and why (tier, pattern, key).
  show       A filter's definition and where it comes from.
  test       Run the filters' inline [[test]] cases and fixture cases.
  trust      Show a project filter file, its SHA-256 and its risky rules, ask, then
             record that SHA-256 in your trusted.json (without <path>: every file of the
             nearest .ctxcrl/filters/). Without a terminal to ask on, only with --yes.
  untrust    Forget a project filter file's recorded SHA-256.
  raw        Print the raw output of the last filtered run that showed less than the
             command printed (or the kept file <file>, as a [full output: …] line names it).
             Kept files last [tee] max_age_days (7) within max_total_size (500 MB); for
             one removed since, raw says it expired and when.

Options:
  --filter=NAME   Use this filter instead of the catalogue's choice.
  --then=PIPE     What reads the answer after a pipe, as cc-rewrite writes it: tail:N,
                  head:N, or several in pipe order (tail:50,head:5). The answer is laid out
                  for it (for a tail: markers and the [full output: …] hint above the
                  summary), and the raw output goes through when that cut would lose a fact
                  of the raw output's cut or not be smaller.
  --exit-code=N   The exit code of the command whose output is piped in; passed to the
                  filter and used as cc-filter's own exit code [default: 0].
  --yes           trust: record without asking (what was shown is what is trusted).
  --require-all   Fail when a filter has no test case at all.
  --fixtures=DIR  Folder of fixture cases, <DIR>/<filter>/<case>.toml (by default
                  tests/fixtures of a contextcrawler checkout around the current directory
                  or the package; an installed package has only the inline cases).
  --all           Also list shadowed and broken filter files.
  --verbose       Also show each filter's regex and description.
  -h --help       Show this help.
  --version       Show the version.

Everything after `run`'s own options is the command, options included
(`cc-filter run git log -n 5`). Exit codes: the command's (run, <name>); 127 command not
found; 126 not executable; 128+N killed by signal N; 64 bad usage or unknown filter
(nothing run; `test --require-all` without fixture cases to run too); 1 `test`/`which`
found a failure or no filter, `raw` found no kept output.
"""
import sys

from ctxcrl.console import console

from ctxcrl.console import EXIT_USAGE, VERSION  # noqa: F401  (VERSION: what --version prints)
_COMMANDS = ("run", "list", "which", "show", "test", "trust", "untrust", "raw", "result")


def parse_run(argv: list[str]):
    """The hand-written fast path for `run [--filter=NAME] [--then=PIPE] [--] <argv>...`:
    returns (filter name or None, command argv, --then value or None), or None to let docopt
    decide (help, errors)."""
    if not argv or argv[0] != "run":
        return None
    filter_name = then = None
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--filter="):
            filter_name = word[9:]
            i += 1
        elif word == "--filter" and i + 1 < len(argv):
            filter_name = argv[i + 1]
            i += 2
        elif word.startswith("--then="):
            then = word[7:]
            i += 1
        elif word == "--then" and i + 1 < len(argv):
            then = argv[i + 1]
            i += 2
        elif word.startswith("-"):
            return None
        else:
            break
    command = argv[i:]
    if not command or (filter_name is not None and not filter_name) or then == "":
        return None
    return filter_name, command, then


def parse_pipe(argv: list[str]):
    """Fast path for `<name> [--exit-code=N]`: (name, exit code) or None."""
    if not argv or argv[0] in _COMMANDS or argv[0].startswith("-"):
        return None
    name, rest = argv[0], argv[1:]
    value = "0"
    if len(rest) == 1 and rest[0].startswith("--exit-code="):
        value = rest[0][12:]
    elif len(rest) == 2 and rest[0] == "--exit-code":
        value = rest[1]
    elif rest:
        return None
    code = _int_or_none(value)
    if code is None:
        return None
    return name, code


def _int_or_none(value: str):
    text = value[1:] if value[:1] == "-" else value
    return int(value) if text.isdigit() else None


def with_separator(argv: list[str]) -> list[str]:
    """Put `--` before the command of `run`/`which` so docopt reads its options as words."""
    if not argv or argv[0] not in ("run", "which"):
        return argv
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return argv
        if argv[0] == "run" and word.startswith(("--filter=", "--then=")):
            i += 1
        elif argv[0] == "run" and word in ("--filter", "--then"):
            i += 2
        elif word in ("-h", "--help", "--version"):
            return argv
        else:  # the command's first word (or an unknown option docopt will reject)
            break
    if i >= len(argv):
        return argv
    return argv[:i] + ["--"] + argv[i:]


def _usage() -> str:
    text = __doc__.split("Usage:", 1)[1]
    return "Usage:" + text.split("\n\n", 1)[0]


def parse(argv: list[str]) -> dict | int:
    """docopt over the usage string (the single source of truth): the options, or the exit
    code when nothing is left to do (--help, --version, a usage error: printed)."""
    from ctxcrl.console import parse_usage

    return parse_usage("cc-filter", __doc__, with_separator(argv))


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    try:
        fast = parse_run(argv)
        if fast is not None:
            from cc_filter.run import runner

            return runner.run(fast[1], filter_name=fast[0], then=fast[2])
        if argv == ["result"]:
            from cc_filter.run import result

            return result.run_stage()
        fast = parse_pipe(argv)
        if fast is not None:
            from cc_filter.run import runner

            return runner.filter_stdin(fast[0], fast[1])
        return _main_slow(argv)
    except KeyboardInterrupt:
        return 130


def _main_slow(argv: list[str]) -> int:
    args = parse(argv)
    if isinstance(args, int):
        return args
    if args["<name>"] in _COMMANDS:  # docopt read a command word missing its arguments as <name>
        sys.stderr.write(_usage() + "\n")
        return EXIT_USAGE
    from cc_filter import commands
    from cc_filter.choose import catalogue

    if args["list"] or args["which"] or args["show"] or args["test"]:
        catalogue.refresh()  # cold: also see a built-in filter edited in place
    if args["run"]:
        from cc_filter.run import runner

        return runner.run(args["<argv>"], filter_name=args["--filter"], then=args["--then"])
    if args["list"]:
        return commands.list_filters(show_all=args["--all"], verbose=args["--verbose"])
    if args["which"]:
        return commands.which(args["<command>"])
    if args["show"]:
        return commands.show(args["<name>"])
    if args["test"]:
        return commands.test(args["<name>"], require_all=args["--require-all"],
                             fixtures=args["--fixtures"])
    if args["result"]:
        from cc_filter.run import result

        return result.run_stage()
    if args["trust"]:
        return commands.trust(args["<path>"], yes=args["--yes"])
    if args["untrust"]:
        return commands.untrust(args["<path>"])
    if args["raw"]:
        return commands.raw(args["<file>"])
    code = _int_or_none(args["--exit-code"] or "0")
    if code is None:
        value = args["--exit-code"]
        sys.stderr.write(f"cc-filter: --exit-code must be an integer, not {value!r}\n")
        return EXIT_USAGE
    from cc_filter.run import runner

    return runner.filter_stdin(args["<name>"], code)


run = console(main)  # the console script: main(), then no interpreter teardown


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
