"""What the saved tokens are worth: tokens saved × a model's price per input token.

The defaults are public list prices in USD per million input tokens (uncached, standard tier)
as of PRICES_AS_OF; they go stale, so everything printed calls them estimates and names that
date, and `[economics] <model> = <USD per million input tokens>` in config.toml overrides or
adds models. Each saved token is counted once, at the input price: it is a token of tool
output the agent did not have to read. (In a long session the same output is re-read on later
turns, mostly from the prompt cache at a lower price, so the real figure is usually higher.)
"""
SCHEMA = "ctxcrl.economics/1"
PRICES_AS_OF = "2025-11"

DEFAULT_PRICES = {
    "claude-opus-4.5": 5.00,
    "claude-opus-4.1": 15.00,
    "claude-sonnet-4.5": 3.00,
    "claude-haiku-4.5": 1.00,
    "gpt-5.1": 1.25,
    "gpt-5": 1.25,
    "gpt-5-mini": 0.25,
    "gpt-4.1": 2.00,
    "gpt-4o": 2.50,
    "o3": 2.00,
    "gemini-2.5-pro": 1.25,
    "gemini-2.5-flash": 0.30,
}


class UnknownModel(ValueError):
    pass


def price_table(config: dict) -> dict[str, tuple[float, str]]:
    """model → (USD per million input tokens, "default" | "config")."""
    table = {name: (price, "default") for name, price in DEFAULT_PRICES.items()}
    for name, price in (config.get("economics") or {}).items():
        if isinstance(price, (int, float)) and not isinstance(price, bool) and price >= 0:
            table[str(name).lower()] = (float(price), "config")
    return table


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
    from .render import Style, _table, fmt_int

    style = style or Style()
    rows = [[r["model"], f"${r['usd_per_mtok']:.2f}", fmt_int(r["saved_tokens"]),
             f"${r['usd_saved']:,.2f}", r["source"]]
            for r in data["models"]]
    head = style.bold(f"Estimated value of {fmt_int(data['saved_tokens'])} tokens saved"
                      + (f" since {data['since'][:10]}" if data["since"] else ""))
    note = (f"Estimates: list prices per million input tokens as of {data['prices_as_of']} "
            "(uncached); each saved token counted once.\nOverride or add models under "
            "[economics] in config.toml.")
    table = _table(rows, ["Model", "USD / M input", "Tokens saved", "Saved (est.)", "Price from"],
                   ["left", "right", "right", "right", "left"], style)
    return f"{head}\n\n{table}\n\n{style.dim(note)}"
