"""Result records, for the agents that filter after execution (OpenCode, Copilot CLI).

`decode` turns the agent's post-execution event into the record `cc-filter result` reads
(ARCHITECTURE §3's second pipeline): `agent`, `cwd`, `command`, `input`, `exit_code`, the output
(`output`, or `output_path`: the agent's file holding it in full), `shown_chars` (the length
of what the agent would show: the filtered text must be shorter), `event` (what encode needs
to answer), and the choice of filter — `filter`, `argv`, `key` — that `cc-filter run` would
have made for the command, found by cc-rewrite's own rules (`choose_filter`).

Only a command that cc-rewrite would turn into a single `cc-filter run …` is filtered: one
segment with a filter, alone or after `cd …` segments (`cd sub && pytest -q`). Anything else
(several commands whose outputs are merged, pipes, redirects to files, whatever cc-rewrite
leaves raw) keeps the agent's own output: without a filter, decode writes no record, and the
later stages have nothing to do.

Imports cc_rewrite (and through it the lexer, the peeler and cc-filter's catalogue) only when
a result event arrives; the pre-execution path never loads this module.
"""
from .record import command_record

#: Segments that print nothing on success and may come before the filtered command.
QUIET_PROGRAMS = ("cd", "pushd")


def result_record(agent: str, event: dict, tool_input: dict, *, exit_code: int, cwd=None,
                  output: str | None = None, output_path: str | None = None,
                  shown_chars: int | None = None, **meta) -> dict | None:
    """The result record, with the filter chosen; None when no filter applies."""
    rec = command_record(agent, event, tool_input, cwd=cwd, phase="post", **meta)
    if rec is None or not isinstance(exit_code, int) or isinstance(exit_code, bool):
        return None
    rec["exit_code"] = exit_code
    if output_path:
        rec["output_path"] = output_path
    elif isinstance(output, str):
        rec["output"] = output
    else:
        return None
    if shown_chars is not None:
        rec["shown_chars"] = shown_chars
    return rec if choose_filter(rec) else None


def choose_filter(rec: dict) -> bool:
    """Set `filter`, `argv` and `key` on `rec` when its command is one that cc-rewrite would
    run through a single `cc-filter run`; False when the output must stay as it is."""
    from cc_peel.peeling import peel
    from cc_rewrite.refusals import RewriteSettings
    from cc_rewrite.rewrite import REWRITTEN, Catalogue, rewrite

    command = rec["command"]
    settings = RewriteSettings.from_config()
    result = rewrite(command, Catalogue(rec.get("cwd")), settings)
    if result.whole or not result.changed:
        return False
    chosen = [i for i, note in enumerate(result.notes) if note.action == REWRITTEN]
    if len(chosen) != 1:
        return False
    try:
        segments = (peel(command, settings.transparent_prefixes) if settings.transparent_prefixes
                    else peel(command)).segments
    except Exception:
        return False
    if len(segments) != len(result.notes):
        return False
    index = chosen[0]
    for i, seg in enumerate(segments):
        if i < len(segments) - 1 and seg.separator not in ("&&", ";"):
            return False  # a pipe, `||`, `&`: the output is not this command's alone
        if i != index and (not seg.argv or seg.argv[0] not in QUIET_PROGRAMS):
            return False
    seg = segments[index]
    if not seg.argv:
        return False
    rec["filter"] = result.notes[index].filter
    rec["argv"] = list(seg.argv)
    rec["key"] = seg.key or " ".join(seg.argv)
    return True


def filtered_of(rec: dict) -> str | None:
    """The text `cc-filter result` chose for the model, or None (the agent keeps its own)."""
    text = rec.get("filtered")
    return text if isinstance(text, str) else None


def is_result(rec: dict) -> bool:
    meta = rec.get("event")
    return isinstance(meta, dict) and meta.get("phase") == "post"
