"""Which filter each command of a typical agent week gets (cc-filter/README.md, "Coverage").

The week is `tests/cc_filter/agent_week/commands.txt`: one command a line with how many times an agent
ran it in a week of ordinary work on a few repositories (`12 git status`), grouped by kind.
For each command this prints the filter the catalogue chooses in that folder (its
package.json has the web app's scripts) — its
own, the generic fallback, or none (with why) — and the shares, counted by runs. Usage:

    python scripts/catalogue_coverage.py            # the table and the shares (markdown)
    python scripts/catalogue_coverage.py --summary  # the shares only
"""
import os
import shlex
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEEK_DIR = os.path.join(REPO, "tests", "cc_filter", "agent_week")
WEEK = os.path.join(WEEK_DIR, "commands.txt")


def week(path: str = WEEK) -> list[tuple[int, str]]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            count, _, command = line.partition(" ")
            rows.append((int(count), command.strip()))
    return rows


def routes(rows, cwd: str = WEEK_DIR) -> list[tuple[int, str, str, str]]:
    """(runs, command, filter or '', how: 'own' | 'fallback' | 'none: why')."""
    from cc_filter.choose import catalogue
    from cc_peel.keys import key_of

    out = []
    for count, command in rows:
        key = key_of(shlex.split(command))
        entry = catalogue.lookup(key, cwd, warn=False, fallback=False)
        if entry is not None:
            out.append((count, command, entry.name, "own"))
            continue
        generic, why = catalogue.fallback_for(key, cwd)
        if generic is not None:
            out.append((count, command, generic.name, "fallback"))
        else:
            out.append((count, command, "", f"none: {why}"))
    return out


def shares(routed) -> dict:
    total = sum(r[0] for r in routed)
    own = sum(r[0] for r in routed if r[3] == "own")
    fallback = sum(r[0] for r in routed if r[3] == "fallback")
    return {"runs": total, "commands": len(routed), "own": own, "fallback": fallback,
            "none": total - own - fallback}


def main(argv) -> int:
    routed = routes(week())
    s = shares(routed)
    if "--summary" not in argv:
        print("| runs | command | filter |")
        print("|---:|---|---|")
        for count, command, name, how in routed:
            shown = name if how == "own" else ("generic (fallback)" if how == "fallback"
                                                else f"— ({how[6:]})")
            print(f"| {count} | `{command}` | {shown} |")
        print()
    pct = lambda n: f"{100 * n / s['runs']:.0f} %"  # noqa: E731
    print(f"{s['commands']} commands, {s['runs']} runs: own filter {s['own']} ({pct(s['own'])}), "
          f"generic fallback {s['fallback']} ({pct(s['fallback'])}), unfiltered "
          f"{s['none']} ({pct(s['none'])}); filtered in all "
          f"{pct(s['own'] + s['fallback'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
