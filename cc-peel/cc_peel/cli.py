"""cc-peel: split a shell command line into simple commands and peel each to its core.

Usage:
  cc-peel [--] [<command>]
  cc-peel (-h | --help)
  cc-peel --version

Reads the command line from <command>, or else all of stdin, as UTF-8. Splits it at
operators and pipes (quotes respected, via cc-lex), finds the commands nested in $(…),
backticks, <(…), ( ), { }, if/for/while/until/case and function bodies too, and prints one
JSON object per simple command, in order of their start offset:
  text start end    the command exactly as written (code-point offsets), without separator
  separator         the operator or pipe after it: && || ; ;; & | |& newline, or ""
  env env_vars      leading assignments verbatim ('FOO=1 ', 'env A=1 ') and as [NAME, value]
  wrappers          transparent wrappers verbatim: timeout [opts] DURATION, time, nice [-n N],
                    nohup, command, exec, noglob, nocorrect, builtin, stdbuf, and the config's
                    [hooks] transparent_prefixes
  core_start core_end core
                    the command itself, runner included ('uv run pytest -q'), without the
                    trailing redirects
  argv              the unquoted words of the core, redirections left out
  key               the normalised command filters are matched on: program basename
                    (/usr/bin/grep, \\git), runners unwrapped (uv run, uvx, poetry/pdm/pipenv/
                    rye/hatch run, python -m, npx, npm exec, pnpm exec/dlx, bunx, yarn dlx,
                    bundle exec, ./gradlew, ./mvnw), git global options and cargo +toolchain
                    dropped: '/usr/bin/git -C x --no-pager log' → 'git log'
  redirects         trailing redirections as written: ["2>&1"], [">", "out.txt"]
  file_redirect     true when output goes to a file (/dev/null too; 2>&1 does not count)
  position          alone, producer, middle or final in its pipeline
  opaque            why it must never be rewritten, or null: heredoc, substitution, arithmetic,
                    file_redirect, in_substitution, in_group, in_control, no_command,
                    delegates:<sudo|ssh|bash -c|xargs|docker exec|…>, already_filtered,
                    disabled (a CTXCRL_DISABLED= prefix)
  nested            the innermost construct around it: substitution, group, control, or null
  whole_opaque      why the whole line must not be rewritten, or null: heredoc, arithmetic
                    ($((…)), ((…))), block (a group, control structure or function in a
                    multi-line command)

Options:
  -h --help  Show this help.
  --version  Show the version.

Exit codes:
  0  segments printed (nothing for an empty command)
  2  unterminated quote, substitution or ${ (one line on stderr naming the offset, nothing
     on stdout), or input that is not UTF-8
  64 a usage error
"""
import sys

from cc_lex.lexer import LexError
from cc_lex.source import InputError, read_command

from ctxcrl.console import console
from .peeling import configured_prefixes, peel
from .record import dumps


def parse_args(argv: list[str]) -> dict | int:
    """The options for argv (`fast_args`, else docopt), or the exit code when nothing is left
    to do (--help, --version, a usage error)."""
    from ctxcrl.console import parse_options

    return parse_options("cc-peel", __doc__, argv, fast_args)


def fast_args(argv: list[str]) -> dict | None:
    """argv parsed without docopt, or None for anything but one command (or none)."""
    dashes = bool(argv) and argv[0] == "--"
    if dashes:
        argv = argv[1:]
    elif any(arg.startswith("-") and arg != "-" for arg in argv):
        return None
    if len(argv) > 1:
        return None
    return {"--": dashes, "<command>": argv[0] if argv else None, "--help": False,
            "--version": False}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if isinstance(args, int):
        return args
    try:
        text = read_command(args["<command>"])
        peeled = peel(text, configured_prefixes())
    except InputError as error:
        sys.stderr.write(f"cc-peel: {error}\n")
        return 2
    except LexError as error:
        sys.stderr.write(f"cc-peel: {error.message} at offset {error.offset}\n")
        return 2
    whole = dumps(peeled.whole_opaque, ensure_ascii=False)
    lines = [f'{segment.to_json()[:-1]}, "whole_opaque": {whole}}}'
             for segment in peeled.segments]
    if not lines:
        return 0
    try:
        sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stdout = None
    return 0


run = console(main)  # the console script: main(), then no interpreter teardown
