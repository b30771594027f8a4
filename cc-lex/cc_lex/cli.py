"""cc-lex: lex a shell command line into typed tokens with exact offsets.

Usage:
  cc-lex [--words] [--format=FMT] [--bytes] [--] [<command>]
  cc-lex (-h | --help)
  cc-lex --version

Reads the command line from <command>, or else all of stdin, as UTF-8 and unchanged (a
trailing newline on stdin is a newline token). Prints one token per line:
  jsonl  {"kind": "word", "text": "git", "start": 0, "end": 3}
  tsv    kind<TAB>text<TAB>start<TAB>end   (\\ tab newline CR in text escaped as \\\\ \\t \\n \\r)
start/end are code-point offsets (text == input[start:end]); token texts plus the gaps
between them rebuild the input exactly.

Token kinds:
  word          a shell word, quotes kept: git  "a b"  $'x\\n'  ${x:-y}  a\\ b
  operator      &&  ||  ;  ;;  ;&  ;;&  &  newline (\\n or \\r\\n)
  pipe          |  |&
  redirect      fd prefix and dup target glued: >  2>  >>  2>&1  >&2  2>&-  &>  &>>  <
                <<  <<-  <<<  >|  <>
  substitution  openers $(  `  <(  >(  $((  and their closers  )  `  ))
  group         (  )  {  }  and the arithmetic command's ((  ))
  comment       # to the end of the line (only where a word starts)
  heredoc       a heredoc body with its terminator line
A word holding a substitution is split around it ("a$(b)c": word, $(, b, ), word);
tokens that touch form one shell word. Unquoted heredoc bodies are split the same way.

Options:
  --words       Print the unquoted shell words instead, one per line (a JSON string, or
                escaped text with tsv): what shlex.split gives, except that operators are
                words of their own, $(…) `…` ${…} stay one word, $'…' is decoded, and
                comments, newlines and heredoc bodies are dropped.
  --format=FMT  Output format: jsonl or tsv [default: jsonl].
  --bytes       Give offsets in UTF-8 bytes instead of code points.
  -h --help     Show this help.
  --version     Show the version.

Exit codes:
  0  tokens printed (nothing for an empty command)
  2  unterminated quote, substitution or ${ (one line on stderr naming the offset, nothing
     on stdout), input that is not UTF-8, or an unknown --format
  64 a usage error
"""
import sys

from .lexer import LexError, tokenize
from .source import InputError, read_command

FORMATS = ("jsonl", "tsv")


def parse_args(argv: list[str]) -> dict | int:
    """The options for argv (`fast_args`, else docopt), or the exit code when nothing is left
    to do (--help, --version, a usage error)."""
    from ctxcrl.console import parse_options

    return parse_options("cc-lex", __doc__, argv, fast_args)


def fast_args(argv: list[str]) -> dict | None:
    """argv parsed without docopt, or None for anything but plain flags and one command."""
    args = {"--words": False, "--format": "jsonl", "--bytes": False, "--": False,
            "<command>": None, "--help": False, "--version": False}
    positional_only = False
    seen: set[str] = set()
    k = 0
    while k < len(argv):
        arg = argv[k]
        k += 1
        if positional_only or not arg.startswith("-") or arg == "-":
            if args["<command>"] is not None:
                return None
            args["<command>"] = arg
        elif arg in seen:
            return None  # docopt refuses repeated options
        elif arg == "--":
            positional_only = args["--"] = True
        elif arg == "--words" or arg == "--bytes":
            args[arg] = True
        elif arg.startswith("--format=") and "--format" not in seen:
            args["--format"] = arg[len("--format="):]
            arg = "--format"
        elif arg == "--format" and k < len(argv):
            args["--format"] = argv[k]
            k += 1
        else:
            return None
        seen.add(arg)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if isinstance(args, int):
        return args
    fmt = args["--format"]
    if fmt not in FORMATS:
        sys.stderr.write(f"cc-lex: unknown format {fmt!r} (jsonl or tsv)\n")
        return 2
    try:
        text = read_command(args["<command>"])
    except InputError as error:
        sys.stderr.write(f"cc-lex: {error}\n")
        return 2
    try:
        tokens = tokenize(text)
    except LexError as error:
        offset = error.offset
        if args["--bytes"]:
            offset = len(text[:offset].encode("utf-8"))
        sys.stderr.write(f"cc-lex: {error.message} at offset {offset}\n")
        return 2
    from .render import token_lines, word_lines

    if args["--words"]:
        from .words import words_of_tokens

        lines = word_lines(words_of_tokens(tokens, text), fmt)
    else:
        lines = token_lines(text, tokens, fmt, args["--bytes"])
    return write_lines(lines)


def write_lines(lines: list[str]) -> int:
    if not lines:
        return 0
    try:
        sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            sys.stdout = None
        except Exception:
            pass
    return 0
