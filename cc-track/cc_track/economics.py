"""What the saved tokens are worth, and what the agents really spent.

Prices are data: `prices.json` next to this module holds USD per million tokens for input,
output, cache reads and cache writes per model, with the date they were read (`as_of`); they
go stale, so everything printed names that date and calls the result an estimate.
`[economics]` in config.toml overrides or adds models: `<model> = <USD per million input
tokens>` (the other kinds keep the table's price, or are unpriced for a new model), or a table
`<model> = {input = 3.0, output = 15.0, cache_read = 0.3, cache_write = 3.75}`.

Two figures:
- `build_economics`: tokens saved × each model's input price (a saved token is a token of tool
  output the agent did not read). Counted once: a lower bound, since in a long session the same
  output is re-read on later turns, mostly from the prompt cache.
- `build_spend`: the token usage the agents' transcripts record (history.py), priced per model,
  and the savings as a share of that real spend, per day and per project.
"""
import json
import os
import re
import time

SCHEMA = "ctxcrl.economics/1"
KINDS = ("input", "output", "cache_read", "cache_write")


def _load_prices() -> dict:
    with open(os.path.join(os.path.dirname(__file__), "prices.json"), encoding="utf-8") as f:
        return json.load(f)


_PRICES = _load_prices()
PRICES_AS_OF = _PRICES["as_of"]
#: model → its full price row (USD per million tokens of each kind)
DEFAULT_MODEL_PRICES = {name: dict(row) for name, row in _PRICES["models"].items()}
DEFAULT_PRICES = {name: row["input"] for name, row in DEFAULT_MODEL_PRICES.items()}


class UnknownModel(ValueError):
    pass


def _price(value) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


def model_prices(config: dict) -> dict[str, dict]:
    """model → {"input", "output", "cache_read", "cache_write" (USD / M tokens or None),
    "source": "default" | "config"}, the defaults with config.toml's [economics] on top."""
    table = {name: {**row, "source": "default"} for name, row in DEFAULT_MODEL_PRICES.items()}
    for name, value in (config.get("economics") or {}).items():
        name = str(name).lower()
        row = dict(table.get(name) or dict.fromkeys(KINDS))
        if _price(value) is not None:
            row["input"] = _price(value)
        elif isinstance(value, dict) and any(_price(value.get(k)) is not None for k in KINDS):
            row.update({k: _price(value[k]) for k in KINDS if _price(value.get(k)) is not None})
        else:
            continue
        row["source"] = "config"
        table[name] = row
    return {name: row for name, row in table.items() if row.get("input") is not None}


def price_table(config: dict) -> dict[str, tuple[float, str]]:
    """model → (USD per million input tokens, "default" | "config")."""
    return {name: (row["input"], row["source"]) for name, row in model_prices(config).items()}


_DATE_SUFFIX = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")
_VERSION = re.compile(r"(\d)-(\d)(?=$|-)")


def canonical_model(name: str, table: dict) -> str | None:
    """The price table's name for a model as an agent records it: `claude-sonnet-4-5-20250929`
    → `claude-sonnet-4.5`, `gpt-5.1-codex-max` → `gpt-5.1-codex` (the longest known prefix);
    None when the table has no such model."""
    name = (name or "").lower().strip()
    for candidate in (name, _DATE_SUFFIX.sub("", name), _VERSION.sub(r"\1.\2",
                                                                     _DATE_SUFFIX.sub("", name))):
        if candidate in table:
            return candidate
    base = _VERSION.sub(r"\1.\2", _DATE_SUFFIX.sub("", name))
    known = [k for k in table if base.startswith(k + "-")]
    return max(known, key=len) if known else None


def build_economics(saved_tokens: int, config: dict, model: str | None = None,
                    since: str | None = None) -> dict:
    table = price_table(config)
    if model is not None:
        wanted = model.lower()
        if wanted not in table:
            raise UnknownModel(
                f"unknown model {model!r}; known: {', '.join(sorted(table))} "
                "(add it under [economics] in config.toml)")
        table = {wanted: table[wanted]}
    rows = [
        {"model": name, "usd_per_mtok": price, "source": source,
         "saved_tokens": saved_tokens, "usd_saved": round(saved_tokens * price / 1e6, 4)}
        for name, (price, source) in table.items()
    ]
    rows.sort(key=lambda r: (-r["usd_per_mtok"], r["model"]))
    return {"schema": SCHEMA, "estimate": True, "prices_as_of": PRICES_AS_OF,
            "since": since, "saved_tokens": saved_tokens, "models": rows}


def render_economics(data: dict, style=None) -> str:
    from .render import Style, text_table, fmt_int

    style = style or Style()
    rows = [[r["model"], f"${r['usd_per_mtok']:.2f}", fmt_int(r["saved_tokens"]),
             f"${r['usd_saved']:,.2f}", r["source"]]
            for r in data["models"]]
    head = style.bold(f"Estimated value of {fmt_int(data['saved_tokens'])} tokens saved"
                      + (f" since {data['since'][:10]}" if data["since"] else ""))
    note = (f"Estimates: list prices per million input tokens as of {data['prices_as_of']} "
            "(uncached); each saved token counted once.\nOverride or add models under "
            "[economics] in config.toml.")
    table = text_table(rows, ["Model", "USD / M input", "Tokens saved", "Saved (est.)", "Price from"],
                   ["left", "right", "right", "right", "left"], style)
    return f"{head}\n\n{table}\n\n{style.dim(note)}"


# --- real spend, from the agents' transcripts ------------------------------------------------

def _local_day(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def usd_of(tokens: dict, prices: dict) -> float:
    return sum(tokens[k] * (prices.get(k) or 0.0) for k in KINDS) / 1e6


def _saved_by(db, since) -> dict:
    """(local day, project) → tokens saved, from tracking.db."""
    if db is None:
        return {}
    where, params = ("WHERE ts >= ?", (since,)) if since is not None else ("", ())
    rows = db.execute(
        "SELECT date(ts, 'unixepoch', 'localtime'), coalesce(project, ''), "
        f"coalesce(sum(saved_tokens), 0) FROM records {where} GROUP BY 1, 2", params).fetchall()
    return {(day, project): saved for day, project, saved in rows}


def build_spend(history, config: dict, db=None, since: float | None = None) -> dict:
    """The token usage recorded in `history` (history.History) priced per model, and the
    tokens saved (tracking.db) as a share of that spend, per local day and per project.

    A group's saved tokens are priced at the input price of the models that group's sessions
    used (weighted by their input-side tokens); `savings_share_pct` = saved USD ÷ spend USD."""
    from ctxcrl.spool import project_of

    table = model_prices(config)
    models: dict = {}
    groups = {"day": {}, "project": {}}
    messages = 0
    for session in history.sessions:
        project = project_of(session.cwd) if session.cwd else ""
        for usage in session.usage:
            if since is not None and (usage.ts is None or usage.ts < since):
                continue
            messages += 1
            priced_as = canonical_model(usage.model, table)
            prices = table.get(priced_as) or {}
            tokens = {k: getattr(usage, k) for k in KINDS}
            usd = usd_of(tokens, prices)
            row = models.setdefault(usage.model, {
                "model": usage.model, "priced_as": priced_as, "messages": 0,
                **dict.fromkeys(KINDS, 0), "usd": 0.0,
                "usd_per_mtok": {k: prices.get(k) for k in KINDS} if prices else None})
            row["messages"] += 1
            for k in KINDS:
                row[k] += tokens[k]
            row["usd"] += usd
            day = _local_day(usage.ts) if usage.ts is not None else ""
            for name, key in (("day", day), ("project", project)):
                g = groups[name].setdefault(key, {"spend_usd": 0.0, "tokens": 0,
                                                  "_weight": 0, "_input_usd": 0.0})
                g["spend_usd"] += usd
                g["tokens"] += usage.total
                weight = usage.input + usage.cache_read + usage.cache_write
                if prices.get("input") is not None:
                    g["_weight"] += weight
                    g["_input_usd"] += weight * prices["input"]
    saved = _saved_by(db, since)
    by_day: dict = {}
    by_project: dict = {}
    for (day, project), tokens in saved.items():
        by_day[day] = by_day.get(day, 0) + tokens
        by_project[project] = by_project.get(project, 0) + tokens

    def rows(name, saved_tokens):
        out = []
        for key in sorted(set(groups[name]) | set(saved_tokens)):
            g = groups[name].get(key, {"spend_usd": 0.0, "tokens": 0, "_weight": 0,
                                       "_input_usd": 0.0})
            tokens = saved_tokens.get(key, 0)
            price = g["_input_usd"] / g["_weight"] if g["_weight"] else None
            saved_usd = round(tokens * price / 1e6, 6) if price is not None else None
            spend = round(g["spend_usd"], 6)
            out.append({name: key, "spend_usd": spend, "tokens": g["tokens"],
                        "saved_tokens": tokens, "saved_usd": saved_usd,
                        "savings_share_pct": (round(saved_usd / spend * 100, 2)
                                              if saved_usd is not None and spend else None)})
        return out

    model_rows = sorted(models.values(), key=lambda r: (-r["usd"], r["model"]))
    for r in model_rows:
        r["usd"] = round(r["usd"], 6)
    totals = {k: sum(r[k] for r in model_rows) for k in KINDS}
    return {
        "prices_as_of": PRICES_AS_OF, "sessions": len(history.sessions), "messages": messages,
        "tokens": {**totals, "total": sum(totals.values())},
        "spend_usd": round(sum(r["usd"] for r in model_rows), 6),
        "unpriced_models": sorted(r["model"] for r in model_rows if r["priced_as"] is None),
        "models": model_rows, "days": rows("day", by_day), "projects": rows("project", by_project),
    }


def render_spend(data: dict, style=None) -> str:
    from ctxcrl import home
    from .render import Style, text_table, fmt_int

    style = style or Style()

    def money(value):
        return "—" if value is None else f"${value:,.4f}" if value < 1 else f"${value:,.2f}"

    def share(value):
        return "—" if value is None else f"{value:.2f} %"

    out = [style.bold(f"Real spend in {fmt_int(data['sessions'])} agent sessions: "
                      f"{money(data['spend_usd'])} (estimate)")]
    if not data["models"]:
        out.append("No token usage found in the agents' session histories.")
        return "\n".join(out)
    out.append("")
    rows = [[r["model"], r["priced_as"] or "(no price)", fmt_int(r["messages"]),
             fmt_int(r["input"]), fmt_int(r["cache_write"]), fmt_int(r["cache_read"]),
             fmt_int(r["output"]), money(r["usd"])] for r in data["models"]]
    out.append(text_table(rows, ["Model", "Priced as", "Replies", "Input", "Cache write",
                             "Cache read", "Output", "Spend"],
                      ["left", "left", "right", "right", "right", "right", "right", "right"],
                      style))
    for name, title in (("days", "day"), ("projects", "project")):
        key = title
        out += ["", style.bold(f"Savings as a share of spend, per {title}")]
        rows = [[r[key] if key == "day" else home.short_path(r[key] or "(none)"),
                 money(r["spend_usd"]), fmt_int(r["saved_tokens"]), money(r["saved_usd"]),
                 share(r["savings_share_pct"])] for r in data[name]]
        out.append(text_table(rows, [title.capitalize(), "Spend", "Tokens saved", "Saved",
                                 "Share of spend"],
                          ["left", "right", "right", "right", "right"], style))
    note = (f"Estimates: list prices as of {data['prices_as_of']} (input, output, cache read, "
            "cache write); tokens as the transcripts record them; saved tokens priced at the "
            "input price of the models used, each counted once.")
    if data["unpriced_models"]:
        note += (f"\nNo price for {', '.join(data['unpriced_models'])}: add it under "
                 "[economics] in config.toml.")
    out += ["", style.dim(note)]
    return "\n".join(out)
