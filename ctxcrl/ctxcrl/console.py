"""How the tools' processes end: `exit_now`, and `console(main)`, the console-script entry.

A command-line tool's work is done when `main()` returns; what Python does next — freeing
every module and object — costs 2–3 ms, a sixth of a tool's whole run, and the agent's hook
waits for it four times in a row (each stage sees its input end only when the one before it
has exited). So the console scripts and the hook's stages flush and `_exit` instead. Safe for
tools that close what they write (files with `with`, spool and tee by `os.write` on an fd
they close, answers by `os.write` or sys.stdout): nothing is left for the teardown to do.
`main()` itself returns, for tests. Imports only `sys` (and `posix` when exiting).

The seven tools share one command-line convention, kept here: `--version` prints
`<tool> <version>`, a usage error exits EXIT_USAGE (64, EX_USAGE of sysexits.h: no tool uses
it for an answer) with one message that names the unknown option in words.
"""
import sys

#: The version every tool reports (pyproject.toml's; a test keeps the two equal).
VERSION = "0.1.0"
#: The exit code of a usage error, in every tool.
EXIT_USAGE = 64


def exit_now(code) -> None:
    """Flush stdout and stderr, then `_exit(code)` (None is 0, a non-int 1, like sys.exit)."""
    import posix

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone: nothing more to say to it
            pass
    posix._exit(0 if code is None else code if isinstance(code, int) else 1)


def console(main):
    """The console-script entry point for `main() -> exit code`: `cc-x = "cc_x.cli:run"`
    with `run = console(main)`. A SystemExit or KeyboardInterrupt from `main` ends the
    process the usual way."""
    def run() -> None:
        exit_now(main())

    return run


def usage_error(tool: str, message) -> str:
    """docopt's complaint, for users: its `Warning: found unmatched (duplicate?) arguments
    [Option(None, '--bogus', 0, True)]` line becomes `cc-x: unknown option or argument:
    --bogus`; the usage that follows is kept. Cold path (imports `re` only when needed)."""
    text = str(message or "")
    first, _, rest = text.partition("\n")
    if not first.startswith("Warning: found unmatched"):
        return text
    import re

    names = re.findall(r"(?:Option|Argument|Command)\((?:'[^']*'|None), '([^']*)'", first)
    words = ", ".join(names) if names else first.partition("arguments")[2].strip()
    return f"{tool}: unknown option or argument: {words}\n{rest}"


def parse_usage(tool: str, usage: str, argv: list, **docopt_options):
    """docopt over `usage` (the tool's single source of truth). Returns the options, or the
    exit code when nothing is left to do: 0 after `--help` / `--version` (printed; the version
    line is `<tool> <version>`), EXIT_USAGE after a usage error (its message on stderr)."""
    from docopt import DocoptExit, docopt

    try:
        return dict(docopt(usage, argv=argv, version=f"{tool} {VERSION}", **docopt_options))
    except DocoptExit as exc:
        sys.stderr.write(f"{usage_error(tool, exc)}\n")
        return EXIT_USAGE
    except SystemExit as exc:  # --help or --version, already printed
        return 0 if exc.code in (None, 0) else EXIT_USAGE


def parse_options(tool: str, usage: str, argv: list, fast=None, **docopt_options):
    """A tool's options: `fast(argv)` (the hot forms parsed by hand, docopt costs ~25 ms) when
    it gives a dict, else `parse_usage` (docopt over `usage`, the single source of truth, and
    the exit code when nothing is left to do)."""
    if fast is not None:
        opts = fast(argv)
        if opts is not None:
            return opts
    return parse_usage(tool, usage, argv, **docopt_options)
