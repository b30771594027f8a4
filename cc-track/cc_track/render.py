"""Laying a report (report.py's dict) out as a terminal table, CSV, JSON or text bars.

Colour (bold headings, red for output that grew) only when `style.color` is set, which the CLI
does only for a TTY with a TERM that is not "dumb" and no NO_COLOR. Without a TTY (cron, pipes)
the output is plain `simple` tables whose layout depends on nothing but the data.
"""
import csv
import io
import json

from ctxcrl import home
from .report import period_series

CSV_COLUMNS = ("section", "period", "group", "commands", "raw_tokens", "output_tokens",
               "saved_tokens", "savings_pct", "elapsed_ms")
PERIOD_TITLES = {"daily": "Day", "weekly": "Week of", "monthly": "Month"}
GROUP_TITLES = {"command": "Command", "project": "Project"}
COMMAND_WIDTH = 60
BAR_WIDTH = 40


class Style:
    __slots__ = ("color", "unicode")

    def __init__(self, color: bool = False, unicode: bool = True):
        self.color = color
        self.unicode = unicode

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.color else text

    def red(self, text: str) -> str:
        return f"\x1b[31m{text}\x1b[0m" if self.color else text

    def green(self, text: str) -> str:
        return f"\x1b[32m{text}\x1b[0m" if self.color else text

    def dim(self, text: str) -> str:
        return f"\x1b[2m{text}\x1b[0m" if self.color else text

    @property
    def tablefmt(self) -> str:
        return "rounded_outline" if self.color else "simple"


# --- numbers ---------------------------------------------------------------------------------

def fmt_int(n) -> str:
    return f"{n:,}" if n is not None else "-"


def fmt_pct(p) -> str:
    return f"{p:.1f} %" if p is not None else "-"


def fmt_duration(ms) -> str:
    if ms is None:
        return "-"
    seconds = ms / 1000
    if seconds < 1:
        return f"{ms:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m {seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def shorten(text: str | None, width: int = COMMAND_WIDTH) -> str:
    text = (text or "").replace("\n", " ⏎ ")
    return text if len(text) <= width else text[: width - 1] + "…"


def _saved(n, style: Style) -> str:
    return style.red(fmt_int(n)) if n is not None and n < 0 else fmt_int(n)


# --- table -----------------------------------------------------------------------------------

def text_table(rows, headers, align, style: Style) -> str:
    from tabulate import tabulate

    return tabulate(rows, headers=[style.bold(h) for h in headers], tablefmt=style.tablefmt,
                    colalign=align, disable_numparse=True)


def _metric_cells(row: dict, style: Style) -> list[str]:
    return [fmt_int(row["commands"]), fmt_int(row["raw_tokens"]), fmt_int(row["output_tokens"]),
            _saved(row["saved_tokens"], style), fmt_pct(row["savings_pct"]),
            fmt_duration(row["elapsed_ms"])]


_METRIC_HEADERS = ["Runs", "Raw tokens", "Output tokens", "Saved", "Savings", "Time"]
_METRIC_ALIGN = ["right"] * 6


def empty_message(report: dict) -> str | None:
    if report["totals"]["commands"]:
        return None
    if report["since"]:
        return f"No commands recorded since {report['since'][:10]}."
    return "No commands recorded yet."


def render_table(report: dict, style: Style | None = None, graph: bool = False) -> str:
    style = style or Style()
    empty = empty_message(report)
    if empty:
        return empty + _footer(report, style)
    t = report["totals"]
    out = []
    span = f"{t['first'][:10]} → {t['last'][:10]}"
    out.append(style.bold(f"contextcrawler · tokens saved · {span}"))
    out.append("")
    avg = t["elapsed_ms"] / t["commands"] if t["commands"] else None
    out.append(text_table([
        ["Commands", fmt_int(t["commands"])],
        ["Raw tokens", fmt_int(t["raw_tokens"])],
        ["Output tokens", fmt_int(t["output_tokens"])],
        ["Tokens saved", _saved(t["saved_tokens"], style)],
        ["Savings", style.green(fmt_pct(t["savings_pct"]))],
        ["Time", f"{fmt_duration(t['elapsed_ms'])} (avg {fmt_duration(avg)})"],
    ], ["Total", ""], ["left", "right"], style))

    if report["period"] or report["group"]:
        headers, align = [], []
        if report["period"]:
            headers.append(PERIOD_TITLES[report["period"]])
            align.append("left")
        if report["group"]:
            headers.append(GROUP_TITLES[report["group"]])
            align.append("left")
        rows = []
        for row in report["rows"]:
            cells = []
            if report["period"]:
                cells.append(row["period"])
            if report["group"]:
                group = row["group"]
                cells.append(home.short_path(group) if report["group"] == "project"
                             else shorten(group))
            rows.append(cells + _metric_cells(row, style))
        title = " and ".join(
            x for x in (
                {"daily": "By day", "weekly": "By week", "monthly": "By month"}.get(
                    report["period"] or ""),
                {"command": "by command", "project": "by project"}.get(report["group"] or ""),
            ) if x
        )
        out += ["", style.bold(title[0].upper() + title[1:]),
                text_table(rows, headers + _METRIC_HEADERS, align + _METRIC_ALIGN, style)]
    else:
        rows = [[shorten(r["key"], 40), r["filter"] or "-", *_metric_cells(r, style)]
                for r in report["top_commands"]]
        out += ["", style.bold("Top commands by tokens saved"),
                text_table(rows, ["Command", "Filter"] + _METRIC_HEADERS,
                       ["left", "left"] + _METRIC_ALIGN, style)]

    if report["history"]:
        rows = [[h["time"], shorten(h["command"], 50), h["filter"] or "-",
                 "-" if h["exit_code"] is None else str(h["exit_code"]),
                 fmt_int(h["raw_tokens"]), fmt_int(h["output_tokens"]),
                 _saved(h["saved_tokens"], style), fmt_duration(h["elapsed_ms"])]
                for h in report["history"]]
        out += ["", style.bold(f"Last {len(rows)} commands"),
                text_table(rows, ["Time", "Command", "Filter", "Exit", "Raw tokens",
                              "Output tokens", "Saved", "Time taken"],
                       ["left", "left", "left", "right", "right", "right", "right", "right"],
                       style)]

    out.append("")
    if report["grew"]:
        rows = [[g["filter"], fmt_int(g["grew_commands"]), fmt_int(g["commands"]),
                 style.red(fmt_int(g["extra_tokens"])), shorten(g["worst_key"], 40)]
                for g in report["grew"]]
        out += [style.bold("Filters that made output bigger"),
                text_table(rows, ["Filter", "Grew", "Of runs", "Tokens", "Worst command"],
                       ["left", "right", "right", "right", "left"], style)]
    else:
        out.append("No filter made output bigger.")

    if graph:
        out += ["", render_graph(report, style)]
    return "\n".join(out) + _footer(report, style)


def _footer(report: dict, style: Style) -> str:
    notes = []
    if report["rejected_lines"]:
        n = report["rejected_lines"]
        notes.append(f"{n} malformed spool line{'s' * (n != 1)} kept aside in "
                     f"{home.short_path(home.data_dir())}/rejects/")
    if not report["tracking_enabled"]:
        notes.append("Tracking is off ([tracking] enabled = false): nothing new is recorded.")
    return "".join("\n" + style.dim(n) for n in notes)


# --- graph -----------------------------------------------------------------------------------

_EIGHTHS = " ▏▎▍▌▋▊▉█"


def _bar(value: float, scale: float, style: Style, negative: bool = False) -> str:
    cells = abs(value) / scale * BAR_WIDTH if scale else 0
    if not style.unicode:
        text = ("-" if negative else "#") * int(round(cells))
    elif negative:
        text = "░" * max(1, int(round(cells)))
    else:
        full, rest = divmod(int(round(cells * 8)), 8)
        text = "█" * full + (_EIGHTHS[rest] if rest else "")
    return text.ljust(BAR_WIDTH)


def render_graph(report: dict, style: Style | None = None, max_days: int = 60) -> str:
    style = style or Style()
    unit, series = period_series(report, max_days)
    if not series:
        return f"No savings per {unit} to draw yet."
    scale = max(abs(d["saved_tokens"]) for d in series) or 1
    width = max(len(fmt_int(d["saved_tokens"])) for d in series)
    lines = [style.bold(f"Tokens saved per {unit}")]
    for d in series:
        saved = d["saved_tokens"]
        bar = _bar(saved, scale, style, negative=saved < 0)
        if saved < 0:
            bar, number = style.red(bar), style.red(fmt_int(saved).rjust(width))
        else:
            bar, number = style.green(bar), fmt_int(saved).rjust(width)
        lines.append(f"{d['day']}  {bar}  {number}")
    return "\n".join(lines)


# --- json / csv ------------------------------------------------------------------------------

def render_json(report: dict) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False)


def _csv_metrics(row: dict) -> list:
    return [row["commands"], row["raw_tokens"], row["output_tokens"], row["saved_tokens"],
            "" if row["savings_pct"] is None else row["savings_pct"], row["elapsed_ms"]]


def render_csv(report: dict) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerow(["total", "", "", *_csv_metrics(report["totals"])])
    if report["period"] or report["group"]:
        section = "_".join(x for x in (report["period"], report["group"]) if x)
        for row in report["rows"]:
            writer.writerow([section, row["period"] or "", row["group"] or "",
                             *_csv_metrics(row)])
    else:
        for row in report["top_commands"]:
            writer.writerow(["top_command", "", row["key"], *_csv_metrics(row)])
    for h in report["history"]:
        writer.writerow(["history", h["time"], h["command"], 1, h["raw_tokens"],
                         h["output_tokens"], h["saved_tokens"],
                         round(h["saved_tokens"] * 100.0 / h["raw_tokens"], 1)
                         if h["raw_tokens"] else "",
                         "" if h["elapsed_ms"] is None else int(round(h["elapsed_ms"]))])
    for g in report["grew"]:
        writer.writerow(["grew", "", g["filter"], g["grew_commands"], "", "",
                         g["extra_tokens"], "", ""])
    return buffer.getvalue()
