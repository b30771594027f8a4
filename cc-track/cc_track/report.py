"""What the reports say, as plain data (the `ctxcrl.report/1` schema in the README).

`build_report()` runs the SQL and returns a JSON-ready dict; render.py and html.py only lay it
out, so the table, JSON, CSV, graph and HTML forms can never disagree. Periods are local
calendar days, ISO weeks (labelled by their Monday) and months, in the local time zone.
"""
import datetime as _dt
import os
import sqlite3
import time

SCHEMA = "ctxcrl.report/1"
TOP_COMMANDS = 10
PERIODS = ("daily", "weekly", "monthly")
GROUPS = ("command", "project")

_PERIOD_SQL = {
    "daily": "date(ts, 'unixepoch', 'localtime')",
    "weekly": "date(ts, 'unixepoch', 'localtime', 'weekday 0', '-6 days')",
    "monthly": "strftime('%Y-%m', ts, 'unixepoch', 'localtime')",
}
_GROUP_SQL = {
    "command": "coalesce(key, command, '(unknown)')",
    "project": "coalesce(project, cwd, '(unknown)')",
}
_METRICS = (
    "count(*), coalesce(sum(raw_tokens), 0), coalesce(sum(output_tokens), 0), "
    "coalesce(sum(saved_tokens), 0), coalesce(sum(elapsed_ms), 0)"
)


class ReportOptions:
    __slots__ = ("period", "group", "history", "since", "top")

    def __init__(self, period: str | None = None, group: str | None = None,
                 history: int | None = None, since: float | None = None, top: int = TOP_COMMANDS):
        if period is not None and period not in PERIODS:
            raise ValueError(f"unknown period {period!r}")
        if group is not None and group not in GROUPS:
            raise ValueError(f"unknown grouping {group!r}")
        self.period, self.group, self.history, self.since, self.top = (
            period, group, history, since, top)


def parse_since(text: str | None, now: float | None = None) -> float | None:
    """`--since`: a date (YYYY-MM-DD, local midnight), a local date-time (YYYY-MM-DDTHH:MM),
    or a number of days back from now (`7` or `7d`). Raises ValueError otherwise."""
    if text is None or text == "":
        return None
    text = text.strip()
    now = time.time() if now is None else now
    days = text[:-1] if text.endswith("d") else text
    if days.replace(".", "", 1).isdigit():
        return now - float(days) * 86400
    try:
        moment = _dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"--since={text}: expected a date (2026-01-31), a date-time (2026-01-31T09:00) "
            "or a number of days (7 or 7d)"
        ) from None
    if moment.tzinfo is None:
        return time.mktime(moment.timetuple())
    return moment.timestamp()


def _metrics(row) -> dict:
    commands, raw, output, saved, elapsed = row
    return {
        "commands": commands,
        "raw_tokens": raw,
        "output_tokens": output,
        "saved_tokens": saved,
        "savings_pct": round(saved * 100.0 / raw, 1) if raw else None,
        "elapsed_ms": int(round(elapsed)),
    }


def local_iso(ts: float) -> str:
    return _dt.datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")


def _local_time(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts))


def _local_day(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def _week_of(day: str) -> str:
    d = _dt.date.fromisoformat(day)
    return (d - _dt.timedelta(days=d.weekday())).isoformat()


_PERIOD_OF_DAY = {"daily": lambda day: day, "weekly": _week_of, "monthly": lambda day: day[:7]}


def _add(into: list, metrics) -> None:
    for i in range(5):
        into[i] += metrics[i]


def build_report(db: sqlite3.Connection, options: ReportOptions | None = None,
                 now: float | None = None, tracking_enabled: bool = True) -> dict:
    """ONE pass over the records, grouped by (local day, key, filter[, project]), feeds
    everything: totals, top commands, the grew table, the daily series and the period/group
    rows are all sums of those groups (a million rows are scanned once, not five times)."""
    options = options or ReportOptions()
    now = time.time() if now is None else now
    # No WHERE at all without --since: a full scan beats walking the ts index for every row.
    where, args = ("WHERE ts >= ?", (options.since,)) if options.since is not None else ("", ())
    by_project = options.group == "project"
    project_col = f", {_GROUP_SQL['project']} AS p" if by_project else ", NULL AS p"
    # The GROUP BY sorts every row, most of a report's time: SQLite's sorter may share the
    # sort with helper threads (on 2 cores, a million rows: 3.5 s -> 2.5 s of waiting).
    db.execute(f"PRAGMA threads = {min(4, os.cpu_count() or 1)}")
    groups = db.execute(
        f"SELECT {_PERIOD_SQL['daily']} AS d, {_GROUP_SQL['command']} AS k, filter{project_col}, "
        f"{_METRICS}, sum(saved_tokens < 0), "
        "sum(CASE WHEN saved_tokens < 0 THEN saved_tokens ELSE 0 END), min(saved_tokens), "
        f"min(ts), max(ts) FROM records {where} "
        f"GROUP BY d, k, filter{', p' if by_project else ''}", args).fetchall()

    total = [0, 0, 0, 0, 0.0]
    first = last = None
    by_key: dict = {}
    by_filter: dict = {}
    by_day: dict = {}
    by_row: dict = {}
    period_of = _PERIOD_OF_DAY.get(options.period or "")
    for (day, key, filt, project, count, raw, out, saved, ms, grew_runs, extra, worst,
         lo, hi) in groups:
        metrics = (count, raw, out, saved, ms)
        _add(total, metrics)
        first = lo if first is None or lo < first else first
        last = hi if last is None or hi > last else last
        k = by_key.setdefault(key, {"filters": {}, "metrics": [0, 0, 0, 0, 0.0]})
        k["filters"][filt] = k["filters"].get(filt, 0) + count
        _add(k["metrics"], metrics)
        _add(by_day.setdefault(day, [0, 0, 0, 0, 0.0]), metrics)
        name = filt if filt is not None else "(none)"
        g = by_filter.setdefault(name, {"filter": name, "commands": 0, "grew_commands": 0,
                                        "extra_tokens": 0, "worst_key": None,
                                        "worst_saved_tokens": None})
        g["commands"] += count
        g["grew_commands"] += grew_runs
        g["extra_tokens"] += extra
        if grew_runs and (g["worst_saved_tokens"] is None or worst < g["worst_saved_tokens"]
                          or (worst == g["worst_saved_tokens"] and key < g["worst_key"])):
            g["worst_key"], g["worst_saved_tokens"] = key, worst
        if options.period or options.group:
            row_key = (period_of(day) if period_of else None,
                       project if by_project else key if options.group else None)
            _add(by_row.setdefault(row_key, [0, 0, 0, 0, 0.0]), metrics)

    totals = _metrics(total)
    totals["first"] = local_iso(first) if first is not None else None
    totals["last"] = local_iso(last) if last is not None else None
    key_rows = [
        {"key": key, "filter": _main_filter(entry["filters"]), **_metrics(entry["metrics"])}
        for key, entry in by_key.items()
    ]
    key_rows.sort(key=lambda r: (-r["saved_tokens"], -r["raw_tokens"], r["key"]))
    top = key_rows[: options.top]
    grew = sorted((g for g in by_filter.values() if g["grew_commands"]),
                  key=lambda g: (g["extra_tokens"], g["filter"]))
    daily = [{"day": day, **_metrics(m)} for day, m in sorted(by_day.items())]
    rows = [{"period": period, "group": group, **_metrics(m)}
            for (period, group), m in by_row.items()]
    rows.sort(key=lambda r: (r["period"] or "", -r["saved_tokens"], r["group"] or ""))

    history = []
    if options.history:
        for (ts, command, key, filt, mode, code, raw, output, saved, elapsed,
             project) in db.execute(
                "SELECT ts, command, key, filter, mode, exit_code, raw_tokens, output_tokens, "
                f"saved_tokens, elapsed_ms, project FROM records {where} "
                "ORDER BY ts DESC, id LIMIT ?", (*args, options.history)):
            history.append({
                "ts": ts, "time": _local_time(ts), "command": command if command else key,
                "key": key, "filter": filt, "mode": mode, "exit_code": code,
                "raw_tokens": raw, "output_tokens": output, "saved_tokens": saved,
                "elapsed_ms": elapsed, "project": project,
            })

    rejects = 0
    try:
        rejects = db.execute("SELECT coalesce(sum(rejects), 0) FROM ingest_batches").fetchone()[0]
    except sqlite3.OperationalError:
        pass

    return {
        "schema": SCHEMA,
        "generated_at": local_iso(now),
        "since": local_iso(options.since) if options.since is not None else None,
        "period": options.period,
        "group": options.group,
        "tracking_enabled": tracking_enabled,
        "totals": totals,
        "top_commands": top,
        "grew": grew,
        "rows": rows,
        "history": history,
        "daily": daily,
        "rejected_lines": rejects,
    }


def _main_filter(counts: dict):
    """The filter most of a key's runs went through (a key can change filter over time)."""
    named = {f: n for f, n in counts.items() if f is not None}
    if not named:
        return None
    return min(named, key=lambda f: (-named[f], f))


PERIOD_UNITS = {"daily": "day", "weekly": "week", "monthly": "month"}
"""What one bar of a graph stands for: `Tokens saved per week` for a --weekly report."""


def period_series(report: dict, max_points: int = 60) -> tuple[str, list[dict]]:
    """(unit, rows) for graphs: one row per day, or per week / month of a --weekly /
    --monthly report (the daily rows summed, gaps filled as zeros), the last `max_points`
    at most. Each row has `day` (the day, the week's Monday, or `YYYY-MM`) and the metrics."""
    period = report.get("period") or "daily"
    if period == "daily" or period not in _PERIOD_OF_DAY:
        return PERIOD_UNITS["daily"], daily_series(report, max_points)
    period_of = _PERIOD_OF_DAY[period]
    sums: dict = {}
    for d in daily_series(report, 36600):  # every day there is (a century at most)
        into = sums.setdefault(period_of(d["day"]), [0, 0, 0, 0, 0.0])
        _add(into, (d["commands"], d["raw_tokens"], d["output_tokens"], d["saved_tokens"],
                    d["elapsed_ms"]))
    rows = [{"day": label, **_metrics(m)} for label, m in sorted(sums.items())]
    return PERIOD_UNITS[period], rows[-max_points:]


def daily_series(report: dict, max_days: int = 60) -> list[dict]:
    """The report's daily rows with missing days filled in as zeros (for graphs), at most
    the last `max_days` days."""
    days = report["daily"]
    if not days:
        return []
    by_day = {d["day"]: d for d in days}
    last = _dt.date.fromisoformat(days[-1]["day"])
    first = _dt.date.fromisoformat(days[0]["day"])
    first = max(first, last - _dt.timedelta(days=max_days - 1))
    series = []
    day = first
    while day <= last:
        key = day.isoformat()
        series.append(by_day.get(key) or {"day": key, **_metrics((0, 0, 0, 0, 0))})
        day += _dt.timedelta(days=1)
    return series
