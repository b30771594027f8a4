"""Reading and writing the agents' JSON settings files safely (ARCHITECTURE §8 install rules).

Read tolerantly: a UTF-8 BOM is accepted (and kept), an empty file is `{}`. Anything else that
is not a JSON object is "malformed" and is never written over. Writes keep key order, the
file's indentation and its line endings (CRLF stays CRLF), back the previous bytes up to `<file>.bak`, and replace the file atomically
(temp file in the same directory, fsync, rename), following a symlinked settings file to its
target. Cold path: used by `init` / `uninstall` only.
"""
import json
import os

BOM = "\ufeff"


class MalformedSettings(Exception):
    """The settings file exists but is not something we may rewrite."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class SettingsText:
    """A settings file's current state: raw text (None when absent) and parsed object."""

    __slots__ = ("path", "text", "data", "bom", "indent", "newline_at_end", "crlf", "separators")

    def __init__(self, path: str, text: str | None, data: dict, bom: bool, indent, newline_at_end,
                 crlf: bool = False, separators=None):
        self.path = path
        self.text = text
        self.data = data
        self.bom = bom
        self.indent = indent
        self.newline_at_end = newline_at_end
        self.crlf = crlf
        self.separators = separators

    @property
    def exists(self) -> bool:
        return self.text is not None

    def render(self, data: dict) -> str:
        """`data` serialised the way this file is written (indentation, BOM, final newline)."""
        body = json.dumps(data, indent=self.indent, ensure_ascii=False,
                          separators=self.separators)
        if self.newline_at_end:
            body += "\n"
        if self.crlf:
            body = body.replace("\n", "\r\n")
        return (BOM if self.bom else "") + body


def read_text(path: str) -> str | None:
    """The file's text (BOM kept), None when it does not exist; raises MalformedSettings for
    unreadable or non-UTF-8 content."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise MalformedSettings(path, "is a directory") from None
    except OSError as exc:
        raise MalformedSettings(path, f"cannot be read ({exc.strerror})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedSettings(path, f"is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def parse_settings(path: str, text: str | None) -> SettingsText:
    if text is None:
        return SettingsText(path, None, {}, False, 2, True)
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    if not body.strip():
        return SettingsText(path, text, {}, bom, 2, True)
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise MalformedSettings(path, f"is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise MalformedSettings(path, f"holds a JSON {type(data).__name__}, not an object")
    indent = detect_indent(body)
    return SettingsText(path, text, data, bom, indent, body.endswith("\n"),
                        crlf="\r\n" in body, separators=detect_separators(body, indent))


def detect_separators(body: str, indent):
    """json.dumps separators matching the file: `{"a":1,"b":2}` stays without spaces."""
    key = ": " if '": ' in body or '":' not in body else ":"
    if indent is not None:
        return (",", key)
    item = ", " if ", " in body or "," not in body else ","
    return (item, key)


def load_settings(path: str) -> SettingsText:
    return parse_settings(path, read_text(path))


def detect_indent(text: str):
    """The indentation of the first indented line (a tab, or a number of spaces); 2 when the
    file has none (e.g. `{}`); None for a one-line file with content (kept compact)."""
    lines = text.splitlines()
    for line in lines[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    if len(lines) == 1 and lines[0].strip() not in ("{}", ""):
        return None
    return 2


def real_target(path: str) -> str:
    """Where a write to `path` must go: a symlinked file is updated at its target."""
    return os.path.realpath(path) if os.path.islink(path) else path


def write_atomic(path: str, text: str | None, backup: bool = True, mode: int = 0o644) -> None:
    """Replace `path` with `text` (None deletes it), first copying the current bytes to
    `<path>.bak`. The directory is created when missing."""
    target = real_target(path)
    directory = os.path.dirname(target) or "."
    current: bytes | None
    try:
        with open(target, "rb") as f:
            current = f.read()
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        current = None
    if backup and current is not None:
        _write_replace(target + ".bak", current, mode)
    if text is None:
        if current is not None:
            os.unlink(target)
        return
    os.makedirs(directory, exist_ok=True)
    _write_replace(target, text.encode("utf-8"), mode)


def _write_replace(target: str, data: bytes, mode: int) -> None:
    directory = os.path.dirname(target) or "."
    tmp = os.path.join(directory, f".{os.path.basename(target)}.ctxcrl-{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    os.chmod(tmp, mode)
    os.replace(tmp, target)
