"""Output lines for cc-lex: tokens and words as JSON Lines or TSV.

JSON comes from the `_json` C encoder (the `json` package would import `re`).
"""
from _json import encode_basestring

from .lexer import Token


def escape_tsv(text: str) -> str:
    """Backslash-escape what would break a TSV line: \\ tab newline carriage return."""
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        text = (text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                .replace("\r", "\\r"))
    return text


def byte_offsets(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """(start, end) of each token in UTF-8 bytes instead of code points."""
    if text.isascii():
        return [(tok.start, tok.end) for tok in tokens]
    out = []
    pos = 0  # code points converted so far
    bpos = 0  # their length in bytes
    for tok in tokens:
        bpos += len(text[pos:tok.start].encode("utf-8", "surrogatepass"))
        start = bpos
        bpos += len(tok.text.encode("utf-8", "surrogatepass"))
        pos = tok.end
        out.append((start, bpos))
    return out


def token_lines(text: str, tokens: list[Token], fmt: str, in_bytes: bool) -> list[str]:
    spans = byte_offsets(text, tokens) if in_bytes else None
    lines = []
    for index, tok in enumerate(tokens):
        start, end = spans[index] if spans else (tok.start, tok.end)
        if fmt == "tsv":
            lines.append(f"{tok.kind}\t{escape_tsv(tok.text)}\t{start}\t{end}")
        else:
            lines.append(f'{{"kind": "{tok.kind}", "text": {encode_basestring(tok.text)}, '
                         f'"start": {start}, "end": {end}}}')
    return lines


def word_lines(words: list[str], fmt: str) -> list[str]:
    if fmt == "tsv":
        return [escape_tsv(word) for word in words]
    return [encode_basestring(word) for word in words]
