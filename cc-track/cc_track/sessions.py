"""One row per agent session (`cc-track session`): what went through contextcrawler.

A session's shell calls come from the agent's own history (history.py); what contextcrawler
did with them comes from tracking.db (the ingested spool). The two are linked by **cwd and
time**, because neither side names the other: the spool record a `cc-filter run` appends
carries the cwd and the time the run ended, and the history holds each call's cwd, the time
the model asked for it and the time its result came back. A record belongs to the call whose
[asked − 1 s, answered + 1 s] window holds the record's time, in the same project (the one
cc-filter recorded, or the one the record's cwd is in today, as for the calls); when
several calls qualify (back-to-back calls, parallel calls, two sessions in one project) the
one whose own window [asked, answered] holds it wins, then the one whose command contains the
record's program and key, then the narrowest window. Each record links to one call at
most; one call may have several records (`cc-filter run a && cc-filter run b`). Records that
no call claims ran outside any session found (by hand, another agent).

A call counts as "through contextcrawler" when a record links to it, or when its command (as
typed, or as the hook rewrote it) runs `cc-filter`.
"""
from .discover import Integrations, family
from .economics import KINDS, canonical_model, model_prices, usd_of
from .report import local_iso
from ctxcrl.spool import project_of

SCHEMA = "ctxcrl.session/1"
SLACK_SECONDS = 1.0
TOP_MISSED = 3
CSV_COLUMNS = ("agent", "session", "project", "start", "end", "commands", "through_ctxcrl",
               "share_pct", "failed", "raw_tokens", "output_tokens", "saved_tokens",
               "tokens_used", "spend_usd", "top_missed")


def tracked_records(db, start, end) -> list[dict]:
    if db is None or start is None:
        return []
    rows = db.execute(
        "SELECT id, ts, cwd, project, command, key, filter, exit_code, raw_tokens, "
        "output_tokens, saved_tokens FROM records WHERE ts >= ? AND ts <= ? ORDER BY ts, id",
        (start - SLACK_SECONDS, end + SLACK_SECONDS)).fetchall()
    names = ("id", "ts", "cwd", "project", "command", "key", "filter", "exit_code",
             "raw_tokens", "output_tokens", "saved_tokens")
    return [dict(zip(names, row)) for row in rows]


def uses_cc_filter(command: str | None) -> bool:
    return bool(command) and ("cc-filter " in command or command.startswith("cc-filter"))


def link_records(sessions, records) -> tuple[dict, list]:
    """({call id: [record, …]}, [records no call claims])."""
    import bisect

    projects: dict = {}

    def project_at(cwd):
        if cwd not in projects:
            projects[cwd] = project_of(cwd) if cwd else None
        return projects[cwd]

    by_project: dict = {}  # project → ([window start], [window], longest window)
    for session in sessions:
        for call in session.calls:
            if call.ts is None:
                continue
            end = call.end_ts if call.end_ts is not None else call.ts
            by_project.setdefault(project_at(call.cwd), []).append(
                (call.ts - SLACK_SECONDS, end + SLACK_SECONDS, call))
    index = {}
    for key, windows in by_project.items():
        windows.sort(key=lambda w: w[0])
        index[key] = ([w[0] for w in windows], windows,
                          max(w[1] - w[0] for w in windows))
    linked: dict = {}
    unlinked = []
    for record in records:
        # the project cc-filter recorded, or the one its cwd is in today (as for the calls)
        fits = []
        for key in {record["project"], project_at(record["cwd"])} - {None}:
            starts, windows, longest = index.get(key, ([], [], 0))
            i = bisect.bisect_right(starts, record["ts"]) - 1
            while i >= 0 and starts[i] >= record["ts"] - longest:
                if windows[i][1] >= record["ts"] and windows[i] not in fits:
                    fits.append(windows[i])
                i -= 1
        if not fits:
            unlinked.append(record)
            continue
        key = (record["key"] or record["command"] or "").split()
        program = key[0] if key else ""

        def rank(w):
            call = w[2]
            text = " ".join((call.rewritten or call.command).split())
            end = call.end_ts if call.end_ts is not None else call.ts
            return (0 if call.ts <= record["ts"] <= end else 1,
                    0 if program and program in text.split() else 1,
                    0 if " ".join(key) in text else 1, w[1] - w[0])
        call = min(fits, key=rank)[2]
        linked.setdefault(call.id, []).append(record)
    return linked, unlinked


def link_history(history, db) -> tuple[dict, list, list]:
    """(linked, unlinked, records) for the tracking.db records of the sessions' time span."""
    starts = [s.start for s in history.sessions if s.start is not None]
    ends = [s.end for s in history.sessions if s.end is not None]
    records = tracked_records(db, min(starts), max(ends)) if starts else []
    linked, unlinked = link_records(history.sessions, records)
    return linked, unlinked, records


def build_sessions(history, db=None, config: dict | None = None,
                   integrations: Integrations | None = None) -> dict:
    sessions = history.sessions
    linked, unlinked, records = link_history(history, db)
    hooks = (config or {}).get("hooks", {})
    tools = integrations or Integrations(hooks.get("transparent_prefixes") or ())
    table = model_prices(config or {})
    rows = []
    for session in sessions:
        through = failed = 0
        raw = output = saved = 0
        missed: dict = {}
        for call in session.calls:
            mine = linked.get(call.id, [])
            failed += bool(call.failed)
            if mine or uses_cc_filter(call.rewritten) or uses_cc_filter(call.command):
                through += 1
                for r in mine:
                    raw += r["raw_tokens"] or 0
                    output += r["output_tokens"] or 0
                    saved += r["saved_tokens"] or 0
                continue
            if "CTXCRL_DISABLED=" in call.command:
                continue  # the agent chose the raw output on purpose
            rewritten = tools.rewritten(call.command, call.cwd)
            # the generic fallback leaves outputs under its threshold untouched: a command it
            # would merely wrap is no missed saving
            if rewritten is not None and rewritten[1] != "generic":
                fam = family(rewritten[2] or call.command)
                missed[fam] = missed.get(fam, 0) + 1
        spend = 0.0
        for usage in session.usage:
            prices = table.get(canonical_model(usage.model, table)) or {}
            spend += usd_of({k: getattr(usage, k) for k in KINDS}, prices)
        commands = len(session.calls)
        rows.append({
            "agent": session.agent, "session": session.id,
            "project": project_of(session.cwd) if session.cwd else None,
            "start": local_iso(session.start) if session.start is not None else None,
            "end": local_iso(session.end) if session.end is not None else None,
            "models": sorted(session.models),
            "commands": commands, "through_ctxcrl": through,
            "share_pct": round(through / commands * 100, 1) if commands else None,
            "failed": failed, "raw_tokens": raw, "output_tokens": output, "saved_tokens": saved,
            "spool_records": sum(len(linked.get(c.id, [])) for c in session.calls),
            "tokens_used": sum(u.total for u in session.usage), "spend_usd": round(spend, 6),
            "top_missed": [{"family": f, "commands": n} for f, n in sorted(
                missed.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_MISSED]],
        })
    return {"schema": SCHEMA, "sessions": rows, "session_files": history.files,
            "malformed_lines": history.malformed, "spool_records": len(records),
            "unlinked_spool_records": len(unlinked)}


def render_sessions(data: dict, style=None) -> str:
    from ctxcrl import home
    from .render import Style, text_table, fmt_int

    style = style or Style()
    rows = data["sessions"]
    head = style.bold(f"{fmt_int(len(rows))} agent sessions")
    if not rows:
        return f"{head}\nNo agent session histories found."
    table = [[r["agent"], r["session"][:8], home.short_path(r["project"] or ""),
              (r["start"] or "")[:16].replace("T", " "), fmt_int(r["commands"]),
              fmt_int(r["through_ctxcrl"]),
              "—" if r["share_pct"] is None else f"{r['share_pct']:.0f} %",
              fmt_int(r["saved_tokens"]), f"${r['spend_usd']:,.2f}",
              ", ".join(f"{m['family']} ×{m['commands']}" for m in r["top_missed"]) or "—"]
             for r in rows]
    out = [head, "", text_table(table, ["Agent", "Session", "Project", "Start", "Commands",
                                    "Filtered", "Share", "Saved", "Spend", "Top missed"],
                            ["left", "left", "left", "left", "right", "right", "right",
                             "right", "right", "left"], style)]
    if data["unlinked_spool_records"]:
        out += ["", style.dim(f"{fmt_int(data['unlinked_spool_records'])} tracked commands "
                              "ran outside these sessions.")]
    return "\n".join(out)


def render_sessions_csv(data: dict) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in data["sessions"]:
        writer.writerow([r["agent"], r["session"], r["project"] or "", r["start"] or "",
                         r["end"] or "", r["commands"], r["through_ctxcrl"],
                         "" if r["share_pct"] is None else r["share_pct"], r["failed"],
                         r["raw_tokens"], r["output_tokens"], r["saved_tokens"],
                         r["tokens_used"], r["spend_usd"],
                         "; ".join(f"{m['family']} x{m['commands']}" for m in r["top_missed"])])
    return buf.getvalue()
