"""Where a command line comes from: the command-line argument or all of stdin, as UTF-8.

Shared by the cc-lex and cc-peel CLIs (and any tool taking a bare command). Imports nothing.
"""
import sys


class InputError(Exception):
    """The command could not be read as text (one line for stderr)."""


def read_command(argument: str | None) -> str:
    """The argument if given, else all of stdin (nothing stripped: offsets stay exact)."""
    if argument is not None:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError as error:
            raise InputError(f"the command is not valid UTF-8 (character {error.start})") \
                from None
        return argument
    stream = sys.stdin
    if stream is None:
        return ""
    data = stream.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"stdin is not valid UTF-8 (byte {error.start})") from None
