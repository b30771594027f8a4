"""JSON without `import json` (which pulls in `re`): `loads` on the C scanner of `_json`,
`dumps` compact like `json.dumps` (`", "` and `": "` separators, keys in insertion order).
The hook's stages and the spool read and write JSON on every agent command; this is their
one codec. Imports only `_json` (a shared library), lazily.
"""


class _ScannerContext:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    __slots__ = ("strict", "object_hook", "object_pairs_hook", "parse_float", "parse_int",
                 "parse_constant", "memo")

    def __init__(self):
        self.strict = False  # agents' commands may carry raw control characters
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = {"NaN": float("nan"), "Infinity": float("inf"),
                               "-Infinity": float("-inf")}.__getitem__
        self.memo = {}


_scan = None  # _json's scanner, made on first use
_JSON_SPACE = " \t\n\r"
_INF = float("inf")


def ready() -> None:
    """Load `_json` and make the scanner now: a hook stage calls this before its input
    arrives, while the stage before it still works, so its first `loads` does not pay."""
    global _scan
    if _scan is None:
        from _json import make_scanner

        _scan = make_scanner(_ScannerContext())


def loads(text: str):
    """Parse exactly one JSON document; raises ValueError (with json's message) otherwise."""
    if _scan is None:
        ready()
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"not JSON at offset {exc.value}") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise ValueError(str(exc)) from None
    except SystemError:
        # The C scanner raises json.decoder.JSONDecodeError only when json.decoder is already
        # imported; otherwise it fails without an exception. Malformed input is rare: pay for
        # the import only then, to say what is wrong.
        import json.decoder  # noqa: F401

        try:
            value, end = _scan(text, start)
        except (StopIteration, SystemError):
            raise ValueError("malformed JSON") from None
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        except ValueError as exc:
            raise ValueError(str(exc)) from None
    if text[end:].strip(_JSON_SPACE):
        raise ValueError(f"extra data after JSON at offset {end}")
    return value


def dumps(value, ensure_ascii: bool = True) -> str:
    """Compact JSON exactly like `json.dumps(value, ensure_ascii=…)` (`", "` and `": "`
    separators, keys in insertion order); TypeError for what json cannot write either."""
    from _json import encode_basestring, encode_basestring_ascii

    parts: list[str] = []
    _write(value, parts.append, encode_basestring_ascii if ensure_ascii else encode_basestring)
    return "".join(parts)


def _write(value, out, encode) -> None:
    if isinstance(value, str):
        out(encode(value))
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
            out(encode(key))
            out(": ")
            _write(item, out, encode)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        first = True
        for item in value:
            if not first:
                out(", ")
            first = False
            _write(item, out, encode)
        out("]")
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
