"""`cc-track report --html=FILE`: one self-contained page (inline CSS and SVG, no scripts,
no fonts or anything else fetched from the network), light and dark.

Built from the same report dict as every other format (report.py), plus per-project rows and
an economics estimate for one model.
"""
import html

from ctxcrl import home
from .render import fmt_duration, fmt_int, fmt_pct
from .report import period_series

CHART_DAYS = 60

_CSS = """
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#6b7385;--line:#e3e6ec;--accent:#2f6fdf;
--accent2:#9db8ee;--out:#c9ced8;--bad:#d1453b;--good:#1f8a5b;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#12151b;--card:#1b1f27;--ink:#e7eaf0;
--muted:#97a0b3;--line:#2a303b;--accent:#6b9cff;--accent2:#37548c;--out:#3a414e;--bad:#ff7b72;
--good:#4cc38a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1080px;margin:0 auto;padding:32px 24px 48px}
header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:8px}
h1{font-size:22px;margin:0;letter-spacing:-.01em}
h1 span{color:var(--accent)}
h2{font-size:15px;margin:0 0 12px;color:var(--muted);font-weight:600;text-transform:uppercase;
letter-spacing:.06em}
.sub{color:var(--muted)}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:14px;
margin:22px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 20px}
.kpi .v{font-size:30px;font-weight:650;letter-spacing:-.02em;font-variant-numeric:tabular-nums}
.kpi .l{color:var(--muted);font-size:13px}
.kpi .n{color:var(--muted);font-size:12px;margin-top:4px}
.kpi.hero .v{color:var(--accent)}
section{margin-top:14px}
svg text{fill:var(--muted);font-size:11px}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
th{text-align:left;font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;
letter-spacing:.04em;border-bottom:1px solid var(--line);padding:8px 10px}
td{border-bottom:1px solid var(--line);padding:8px 10px;vertical-align:middle}
tr:last-child td{border-bottom:0}
td.num,th.num{text-align:right;white-space:nowrap}
td code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:normal;
word-break:normal}
.seg{white-space:nowrap}
.card{min-width:0;overflow-x:auto}
td.m,span.m{white-space:nowrap}
.meter{display:inline-block;width:90px;height:8px;border-radius:4px;background:var(--out);
vertical-align:middle;margin-right:8px;overflow:hidden}
.meter i{display:block;height:100%;background:var(--accent)}
.bad{color:var(--bad)}
.good{color:var(--good)}
.legend{display:flex;gap:16px;color:var(--muted);font-size:12px;margin-top:6px}
.legend b{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;
vertical-align:-1px}
footer{margin-top:26px;color:var(--muted);font-size:12px}
.empty{color:var(--muted);padding:8px 0}
"""


def _e(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


_BREAKS_INSIDE = frozenset("-?!\u2010\u2013")
"""Characters after which a browser may wrap a word (`my-project` → `my-` / `project`)."""


def _breakable(text) -> str:
    """A path or command line that may wrap between words and after a `/`, never inside a
    name: a name a browser could break (at a hyphen) is kept whole in a `nowrap` span, and
    `<wbr>` after each slash offers the break there instead."""
    words = []
    for word in ("" if text is None else str(text)).split(" "):
        pieces = [f'<span class="seg">{_e(p)}</span>' if _BREAKS_INSIDE & set(p) else _e(p)
                  for p in word.split("/")]
        words.append("/<wbr>".join(pieces))
    return " ".join(words)


def _compact(n: int) -> str:
    a = abs(n)
    if a >= 1_000_000:
        return f"{n / 1e6:.1f}M".replace(".0M", "M")
    if a >= 10_000:
        return f"{n / 1e3:.0f}k"
    if a >= 1_000:
        return f"{n / 1e3:.1f}k".replace(".0k", "k")
    return str(n)


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1
    magnitude = 10 ** (len(str(int(value))) - 1)
    for step in (1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10):
        if value <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def chart_svg(series: list[dict], width: int = 1000, height: int = 260,
              unit: str = "day") -> str:
    """Stacked bars, one per `unit` (day, week, month): output tokens the agent still read,
    tokens saved on top."""
    if not series:
        return f'<p class="empty">No data per {_e(unit)} yet.</p>'
    left, right, top, bottom = 56, 12, 12, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(max(d["raw_tokens"], d["output_tokens"]) for d in series)
    low = min(0, min(d["saved_tokens"] for d in series))
    y_max = _nice_max(peak)
    y_min = -_nice_max(-low) if low < 0 else 0
    span = y_max - y_min

    def y(v):
        return top + plot_h * (y_max - v) / span

    slot = plot_w / len(series)
    bar = max(2.0, min(28.0, slot * 0.7))
    parts = [f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" '
             f'aria-label="Tokens per {_e(unit)}" xmlns="http://www.w3.org/2000/svg">']
    for i in range(5):
        v = y_min + span * i / 4
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="var(--line)" stroke-width="1"/>')
        parts.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end">'
                     f'{_compact(int(v))}</text>')
    label_every = max(1, round(len(series) / 10))
    for i, d in enumerate(series):
        x = left + slot * i + (slot - bar) / 2
        out, saved = d["output_tokens"], d["saved_tokens"]
        tip = (f"{d['day']}: {fmt_int(d['commands'])} commands, {fmt_int(d['raw_tokens'])} raw → "
               f"{fmt_int(out)} read, {fmt_int(saved)} saved")
        parts.append(f"<g><title>{_e(tip)}</title>")
        if out:
            parts.append(f'<rect x="{x:.1f}" y="{y(out):.1f}" width="{bar:.1f}" '
                         f'height="{y(0) - y(out):.1f}" fill="var(--out)" rx="2"/>')
        if saved > 0:
            parts.append(f'<rect x="{x:.1f}" y="{y(out + saved):.1f}" width="{bar:.1f}" '
                         f'height="{y(out) - y(out + saved):.1f}" fill="var(--accent)" rx="2"/>')
        elif saved < 0:
            parts.append(f'<rect x="{x:.1f}" y="{y(0):.1f}" width="{bar:.1f}" '
                         f'height="{y(saved) - y(0):.1f}" fill="var(--bad)" rx="2"/>')
        parts.append("</g>")
        if i % label_every == 0 or i == len(series) - 1:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{height - 12}" text-anchor="middle">'
                         f'{_e(d["day"][5:])}</text>')
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
                 f'stroke="var(--muted)" stroke-width="1"/>')
    parts.append("</svg>")
    return "".join(parts)


def _meter(pct) -> str:
    if pct is None:
        return "-"
    fill = max(0.0, min(100.0, pct))
    cls = ' class="bad"' if pct < 0 else ""
    return (f'<span class="meter"><i style="width:{fill:.0f}%"></i></span>'
            f"<span{cls}>{_e(fmt_pct(pct))}</span>")  # in a <td class=m>


def _num(n, bad_if_negative: bool = False) -> str:
    cls = "num bad" if bad_if_negative and n is not None and n < 0 else "num"
    return f'<td class="{cls}">{_e(fmt_int(n))}</td>'


def render_html(report: dict, projects: list[dict] | None = None,
                economics: dict | None = None, sessions: dict | None = None) -> str:
    t = report["totals"]
    span = (f"{t['first'][:10]} → {t['last'][:10]}" if t["first"] else "no data yet")
    parts = ['<!doctype html><html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width,initial-scale=1">',
             '<title>contextcrawler · tokens saved</title>', f"<style>{_CSS}</style>",
             "</head><body><main>",
             f'<header><h1><span>context</span>crawler · tokens saved</h1>'
             f'<div class="sub">{_e(span)} · generated {_e(report["generated_at"][:16].replace("T", " "))}</div></header>']

    avg = t["elapsed_ms"] / t["commands"] if t["commands"] else None
    value = ""
    if economics and economics.get("models"):
        m = economics["models"][0]
        value = (f'<div class="card kpi"><div class="l">Estimated value</div>'
                 f'<div class="v">${m["usd_saved"]:,.2f}</div>'
                 f'<div class="n">at {_e(m["model"])} input price (${m["usd_per_mtok"]:.2f}/M, '
                 f'list price {_e(economics["prices_as_of"])}; estimate)</div></div>')
    parts.append(
        '<div class="kpis">'
        f'<div class="card kpi hero"><div class="l">Tokens saved</div>'
        f'<div class="v">{_e(fmt_int(t["saved_tokens"]))}</div>'
        f'<div class="n">{_e(fmt_int(t["raw_tokens"]))} raw → {_e(fmt_int(t["output_tokens"]))} '
        f'read by the agent</div></div>'
        f'<div class="card kpi"><div class="l">Savings</div>'
        f'<div class="v">{_e(fmt_pct(t["savings_pct"]))}</div>'
        f'<div class="n">of the raw output tokens</div></div>'
        f'<div class="card kpi"><div class="l">Commands</div>'
        f'<div class="v">{_e(fmt_int(t["commands"]))}</div>'
        f'<div class="n">{_e(fmt_duration(t["elapsed_ms"]))} in total, '
        f'avg {_e(fmt_duration(avg))}</div></div>'
        f"{value}</div>")

    unit, series = period_series(report, CHART_DAYS)
    parts.append(f'<section class="card"><h2>Tokens per {_e(unit)}</h2>')
    parts.append(chart_svg(series, unit=unit))
    parts.append('<div class="legend"><span><b style="background:var(--accent)"></b>saved</span>'
                 '<span><b style="background:var(--out)"></b>still read by the agent</span>'
                 '<span><b style="background:var(--bad)"></b>output grew</span></div></section>')

    parts.append('<section class="card"><h2>Top commands by tokens saved</h2>')
    if report["top_commands"]:
        parts.append("<table><tr><th>Command</th><th>Filter</th><th class=num>Runs</th>"
                     "<th class=num>Raw</th><th class=num>Read</th><th class=num>Saved</th>"
                     "<th>Savings</th></tr>")
        for r in report["top_commands"]:
            parts.append(f"<tr><td><code>{_breakable(r['key'])}</code></td>"
                         f"<td class=m>{_e(r['filter'] or '-')}"
                         f"</td>{_num(r['commands'])}{_num(r['raw_tokens'])}"
                         f"{_num(r['output_tokens'])}{_num(r['saved_tokens'], True)}"
                         f"<td class=m>{_meter(r['savings_pct'])}</td></tr>")
        parts.append("</table>")
    else:
        parts.append('<p class="empty">No commands recorded yet.</p>')
    parts.append("</section>")

    parts.append('<section class="card"><h2>Filters that made output bigger</h2>')
    if report["grew"]:
        parts.append("<table><tr><th>Filter</th><th class=num>Grew</th><th class=num>Of runs</th>"
                     "<th class=num>Tokens</th></tr>")
        for g in report["grew"]:
            parts.append(f"<tr><td><span class=m>{_e(g['filter'])}</span><br><code class=sub>"
                         f"{_breakable(g['worst_key'])}"
                         f"</code></td>{_num(g['grew_commands'])}{_num(g['commands'])}"
                         f"{_num(g['extra_tokens'], True)}</tr>")
        parts.append("</table>")
    else:
        parts.append('<p class="empty good">None: no filter made output bigger.</p>')
    parts.append("</section>")

    parts.append('<section class="card"><h2>Projects</h2>')
    if projects:
        parts.append("<table><tr><th>Project</th><th class=num>Runs</th><th class=num>Saved</th>"
                     "<th>Savings</th></tr>")
        for p in projects[:12]:
            parts.append(f"<tr><td><code>{_breakable(home.short_path(p['group'] or ''))}"
                         "</code></td>"
                         f"{_num(p['commands'])}{_num(p['saved_tokens'], True)}"
                         f"<td class=m>{_meter(p['savings_pct'])}</td></tr>")
        parts.append("</table>")
    else:
        parts.append('<p class="empty">No projects yet.</p>')
    parts.append("</section>")

    if sessions is not None:
        parts.append(sessions_section(sessions))

    notes = ["Tokens are estimated as characters ÷ 4."]
    if report["rejected_lines"]:
        n = report["rejected_lines"]
        notes.append(f"{fmt_int(n)} malformed spool line{'s were' if n != 1 else ' was'} "
                     "kept aside.")
    if not report["tracking_enabled"]:
        notes.append("Tracking is off in config.toml: nothing new is recorded.")
    parts.append(f"<footer>{' '.join(_e(n) for n in notes)} Made by "
                 "<code>cc-track report --html</code>.</footer>")
    parts.append("</main></body></html>\n")
    return "".join(parts)


SESSION_ROWS = 20


def sessions_section(data: dict) -> str:
    """The agent sessions (`cc-track session`): the most recent SESSION_ROWS, newest first."""
    rows = sorted(data["sessions"], key=lambda r: r["start"] or "", reverse=True)[:SESSION_ROWS]
    parts = ['<section class="card"><h2>Agent sessions</h2>']
    if not rows:
        parts.append('<p class="empty">No agent session histories found.</p></section>')
        return "".join(parts)
    parts.append("<table><tr><th>Session</th><th>Project</th><th class=num>Commands</th>"
                 "<th>Through contextcrawler</th><th class=num>Saved</th>"
                 "<th class=num>Spend</th><th>Top missed</th></tr>")
    for r in rows:
        missed = ", ".join(f"{m['family']} ×{m['commands']}" for m in r["top_missed"]) or "-"
        start = (r["start"] or "")[:16].replace("T", " ")
        parts.append(
            f"<tr><td>{_e(r['agent'])} <code>{_e(r['session'][:8])}</code><br>"
            f"<span class=sub>{_e(start)}</span></td>"
            f"<td><code>{_e(home.short_path(r['project'] or ''))}</code></td>"
            f"{_num(r['commands'])}<td class=m>{_meter(r['share_pct'])}</td>"
            f"{_num(r['saved_tokens'], True)}<td class=num>${r['spend_usd']:,.2f}</td>"
            f"<td>{_e(missed)}</td></tr>")
    parts.append("</table></section>")
    return "".join(parts)


def build_page(db, report: dict, since, config: dict, now: float) -> str:
    """The whole report page for `report` (what `cc-track report --html` writes): the report,
    its projects, the money saved at the configured model's price (else claude-sonnet-4.5's),
    and the agent sessions since `since` (default: discover's window)."""
    from .discover import DEFAULT_SINCE_DAYS
    from .economics import build_economics, price_table
    from .history import read_history
    from .report import ReportOptions, build_report
    from .sessions import build_sessions

    projects = build_report(db, ReportOptions(group="project", since=since), now)["rows"]
    configured = [name for name, (_p, source) in price_table(config).items() if source == "config"]
    model = configured[0] if configured else "claude-sonnet-4.5"
    economics = build_economics(report["totals"]["saved_tokens"], config, model)
    start = since if since is not None else now - DEFAULT_SINCE_DAYS * 86400
    sessions = build_sessions(read_history(since=start), db, config)
    return render_html(report, projects, economics, sessions)
