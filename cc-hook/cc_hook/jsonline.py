"""JSON for the hook stages without `import json` (which pulls in `re`, ~10 ms per stage).

`loads` uses the C scanner from `_json`; `dumps` writes compact ASCII JSON with the C string
encoder, in insertion order. Both run on every agent command, so this module imports only
`_json`. Cold commands (init, verify, …) use the real `json` module.
"""
from _json import encode_basestring_ascii, make_scanner


class _ScannerContext:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    __slots__ = ("strict", "object_hook", "object_pairs_hook", "parse_float", "parse_int",
                 "parse_constant", "memo")

    def __init__(self):
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = {"NaN": float("nan"), "Infinity": float("inf"),
                               "-Infinity": float("-inf")}.__getitem__
        self.memo = {}


_scan = make_scanner(_ScannerContext())
_WHITESPACE = " \t\n\r"
_INF = float("inf")


def loads(text: str):
    """Parse one JSON document; raises ValueError when `text` is not exactly one."""
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"not JSON at offset {exc.value}") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after JSON at offset {end}")
    return value


def dumps(value) -> str:
    """Compact JSON (`", "` and `": "` separators, like `json.dumps`), ASCII only."""
    parts: list[str] = []
    _write(value, parts.append)
    return "".join(parts)


def _write(value, out) -> None:
    if isinstance(value, str):
        out(encode_basestring_ascii(value))
    elif value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, int):
        out(int.__repr__(value))
    elif isinstance(value, float):
        if value != value:
            out("NaN")
        elif value in (_INF, -_INF):
            out("Infinity" if value > 0 else "-Infinity")
        else:
            out(float.__repr__(value))
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(", ")
            first = False
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be str, not {type(key).__name__}")
            out(encode_basestring_ascii(key))
            out(": ")
            _write(item, out)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        first = True
        for item in value:
            if not first:
                out(", ")
            first = False
            _write(item, out)
        out("]")
    else:
        raise TypeError(f"not JSON serializable: {type(value).__name__}")
