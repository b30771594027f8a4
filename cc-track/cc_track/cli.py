"""cc-track — what contextcrawler saved you: token tracking and reports.

Every command first ingests the spool (records appended by `cc-filter`) into tracking.db,
exactly once per record, and prunes rows older than [tracking] retention_days.

Usage:
  cc-track report [--daily | --weekly | --monthly] [--by-command | --by-project]
                  [--history=N] [--since=WHEN] [--format=FMT] [--graph] [--html=FILE]
  cc-track economics [--model=NAME] [--since=WHEN] [--format=FMT]
  cc-track discover [--since=WHEN] [--all] [--format=FMT]
  cc-track learn [--since=WHEN] [--all] [--format=FMT] [--write [--yes] | --remove]
  cc-track session [--since=WHEN] [--all] [--format=FMT]
  cc-track record
  cc-track prune
  cc-track repair
  cc-track (-h | --help)
  cc-track --version

Commands:
  report      Totals, top commands by tokens saved, filters that made output bigger.
  economics   Tokens saved × each model's input price, and what the agents really spent:
              the token usage in their session histories priced per model, with the
              savings as a share of it per day and per project (estimates; prices dated,
              [economics] in config overrides them).
  discover    Commands in Claude Code's session logs that ran without contextcrawler
              although a filter exists, and the most frequent commands with no filter.
  learn       Commands the agents got wrong and corrected soon after (a misspelled
              subcommand, a wrong flag, a missing tool, a wrong directory), counted and
              turned into rules; filters the agent bypassed with CTXCRL_DISABLED=1.
              A rule is proposed only when the same correction was seen at least
              twice, both commands are one plain command (no URL, pipe, `;`,
              substitution or redirection to a file), and it fits one line; it is
              rebuilt from the parsed command, never copied from the transcript.
              With --write the rules go into CLAUDE.md / AGENTS.md (a marked block,
              shown in full first); with --remove that block comes out again.
  session     One row per agent session: commands run, the share that went through
              contextcrawler, tokens saved, what it cost, the top missed commands.
  record      Ingest spool records (JSON lines) given on stdin.
  prune       Delete records older than [tracking] retention_days.
  repair      Move a damaged tracking.db aside and rebuild it from what can be salvaged
              and what the spool still holds.

Options:
  --daily            One row per day.
  --weekly           One row per week (labelled by its Monday).
  --monthly          One row per month.
  --by-command       One row per command key.
  --by-project       One row per project.
  --history=N        Also list the N most recent commands.
  --since=WHEN       Only records from WHEN on: a date (2026-01-31), a local date-time
                     (2026-01-31T09:00) or days back from now (7 or 7d). discover, learn,
                     session: default 30.
  --format=FMT       table, json or csv (session too; discover, economics and learn: table
                     or json) [default: table].
  --graph            Add tokens saved as text bars: per day, or per week / month with
                     --weekly / --monthly.
  --html=FILE        Write the report as one self-contained HTML page to FILE.
  --model=NAME       Only this model (see `cc-track economics` for the list).
  --all              discover, learn, session: every project's sessions (default: the
                     current project's).
  --write            learn: write the rules into the project's CLAUDE.md / AGENTS.md /
                     GEMINI.md (for the agents whose sessions they come from). The
                     block is printed in full first and written after a yes on the
                     terminal; without a terminal nothing is written unless --yes.
  --yes              learn --write: write without asking (scripts, no terminal).
  --remove           learn: take contextcrawler's rules block out of those files:
                     exactly the block this install wrote (found by an id kept in the
                     ctxcrl data directory); refused, changing nothing, when its lines
                     were edited since.
  -h --help          Show this help.
  --version          Show the version.

Exit codes: 0 ok, 1 error (I/O, disk full, …), 64 usage error, 3 tracking.db damaged or newer
(run `cc-track repair`).
"""
import os
import sys

from ctxcrl.console import EXIT_USAGE, VERSION  # noqa: F401  (VERSION: what --version prints)

EXIT_OK, EXIT_ERROR, EXIT_DATABASE = 0, 1, 3


class UsageError(Exception):
    pass


def _style():
    from .render import Style

    out = sys.stdout
    color = (out.isatty() and os.environ.get("TERM", "dumb") != "dumb"
             and "NO_COLOR" not in os.environ)
    encoding = (getattr(out, "encoding", None) or "ascii").lower().replace("-", "")
    return Style(color=color, unicode=encoding in ("utf8", "utf16", "utf32"))


def _warn(message: str) -> None:
    sys.stderr.write(f"cc-track: {message}\n")


def _format(args, allowed=("table", "json", "csv")) -> str:
    fmt = (args["--format"] or "table").lower()
    if fmt not in allowed:
        raise UsageError(f"--format={fmt}: expected one of {', '.join(allowed)}")
    return fmt


def _since(args, now):
    from .report import parse_since

    try:
        return parse_since(args["--since"], now)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _open(config, now):
    from .tracking import open_tracking

    opened = open_tracking(config, now=now)
    for warning in opened.warnings:
        _warn(warning)
    return opened


def _write(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def cmd_report(args, config, now) -> int:
    from . import render
    from .report import ReportOptions, build_report

    period = next((p for p in ("daily", "weekly", "monthly") if args[f"--{p}"]), None)
    group = "command" if args["--by-command"] else "project" if args["--by-project"] else None
    history = None
    if args["--history"] is not None:
        try:
            history = int(args["--history"])
            if history < 1:
                raise ValueError
        except ValueError:
            raise UsageError(f"--history={args['--history']}: expected a positive number") from None
    fmt = _format(args)
    since = _since(args, now)
    opened = _open(config, now)
    enabled = bool(config.get("tracking", {}).get("enabled", True))
    report = build_report(opened.db, ReportOptions(period, group, history, since), now, enabled)
    if args["--html"]:
        return _write_html(args["--html"], opened.db, report, since, config, now)
    if fmt == "json":
        _write(render.render_json(report))
    elif fmt == "csv":
        sys.stdout.write(render.render_csv(report))
    else:
        _write(render.render_table(report, _style(), graph=args["--graph"]))
    return EXIT_OK


def _write_html(path, db, report, since, config, now) -> int:
    from .html_page import build_page

    page = build_page(db, report, since, config, now)
    target = os.path.abspath(path)
    tmp = f"{target}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, target)
    except OSError as exc:
        _warn(f"cannot write {path}: {exc.strerror}")
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return EXIT_ERROR
    _write(f"wrote {path}")
    return EXIT_OK


def cmd_economics(args, config, now) -> int:
    from .economics import UnknownModel, build_economics, render_economics
    from .render import render_json

    fmt = _format(args, ("table", "json"))
    since = _since(args, now)
    opened = _open(config, now)
    where, params = ("WHERE ts >= ?", (since,)) if since is not None else ("", ())
    (saved,) = opened.db.execute(
        f"SELECT coalesce(sum(saved_tokens), 0) FROM records {where}", params).fetchone()
    since_text = None
    if since is not None:
        from .report import local_iso

        since_text = local_iso(since)
    try:
        data = build_economics(saved, config, args["--model"], since_text)
    except UnknownModel as exc:
        raise UsageError(str(exc)) from None
    from .economics import build_spend, render_spend
    from .history import read_history

    data["spend"] = build_spend(read_history(since=since), config, opened.db, since)
    if fmt == "json":
        _write(render_json(data))
    else:
        text = render_economics(data, _style())
        if data["spend"]["models"]:
            text += "\n\n" + render_spend(data["spend"], _style())
        _write(text)
    return EXIT_OK


def cmd_discover(args, config, now) -> int:
    from .discover import DEFAULT_SINCE_DAYS, build_discover, render_discover
    from .render import render_json

    fmt = _format(args, ("table", "json"))
    since = _since(args, now)
    days = (now - since) / 86400 if since is not None else DEFAULT_SINCE_DAYS
    opened = _open(config, now)
    data = build_discover(since_days=days, all_projects=args["--all"], db=opened.db,
                          config=config, now=now)
    _write(render_json(data) if fmt == "json" else render_discover(data, _style()))
    return EXIT_OK


def _history_scope(args, now):
    """(history, since, project or None) for learn / session: the current project's sessions
    of the last 30 days unless --since / --all say otherwise."""
    from .discover import DEFAULT_SINCE_DAYS
    from .history import read_history
    from ctxcrl.spool import project_of

    since = _since(args, now)
    if since is None:
        since = now - DEFAULT_SINCE_DAYS * 86400
    project = None if args["--all"] else project_of(os.getcwd())
    return read_history(since=since, project=project), since, project


def cmd_learn(args, config, now) -> int:
    from . import learn
    from .render import render_json
    from .report import local_iso
    from .sessions import link_history
    from ctxcrl import home

    fmt = _format(args, ("table", "json"))
    if (args["--write"] or args["--remove"]) and args["--all"]:
        raise UsageError("--write and --remove work on the current project: drop --all")
    history, since, project = _history_scope(args, now)
    opened = _open(config, now)
    linked, _unlinked, _records = link_history(history, opened.db)
    data = learn.build_learn(history, linked, since_text=local_iso(since),
                             scope="all" if args["--all"] else "project", project=project)
    try:
        if args["--write"]:
            agents = sorted({a for r in data["rules"] for a in r["agents"]}) or ["claude"]
            plans = learn.planned_writes(project, agents, data["rules"])
            data["planned"] = [{"path": path, "delete": new is None,
                                "block": learn.rules_block(data["rules"], learn.install_id())
                                if data["rules"] else None} for path, _old, new in plans]
            if plans and not args["--yes"]:
                _write(render_json(data) if fmt == "json" else learn.render_learn(data, _style()))
                if not _confirm(f"Write this into {', '.join(home.short_path(p) for p, _o, _n in plans)}?"):
                    return EXIT_USAGE if not _interactive() else EXIT_OK
                data["written"] = learn.write_rules(project, agents, data["rules"])
                for path in data["written"]:  # the rest was shown above the question
                    _write(f"wrote the rules block into {home.short_path(path)}")
                return EXIT_OK
            data["written"] = learn.write_rules(project, agents, data["rules"])
        elif args["--remove"]:
            data["removed"] = learn.remove_rules(project)
    except learn.UntrustedHome as exc:
        _warn(f"learn: contextcrawler's home cannot be trusted here ({exc}): --write and "
              "--remove need it (the block's id is kept there); nothing changed")
        return EXIT_ERROR
    except learn.NotAFile as exc:
        _warn(f"learn: {home.short_path(exc.path)} {exc.reason}: not touched, nothing changed")
        return EXIT_ERROR
    except learn.BlockEdited as exc:
        _warn(f"learn: the contextcrawler block in {home.short_path(exc.path)} was edited since "
              "`cc-track learn --write` wrote it (its digest no longer matches): nothing "
              "changed. Take the block out by hand, from its `<!-- contextcrawler:learn` "
              "begin line to its end line.")
        return EXIT_ERROR
    _write(render_json(data) if fmt == "json" else learn.render_learn(data, _style()))
    return EXIT_OK


def _interactive() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _confirm(question: str) -> bool:
    """A yes on the terminal; without one, say that --yes is needed (the caller exits 64)."""
    if not _interactive():
        _warn("learn --write: not a terminal, nothing written; the block above is what it "
              "would write: run again with --yes to write it")
        return False
    sys.stdout.write(f"{question} [y/N] ")
    sys.stdout.flush()
    answer = sys.stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        _write("nothing written")
        return False
    return True


def cmd_session(args, config, now) -> int:
    from .render import render_json
    from .sessions import build_sessions, render_sessions, render_sessions_csv

    fmt = _format(args)
    history, _since_ts, _project = _history_scope(args, now)
    opened = _open(config, now)
    data = build_sessions(history, opened.db, config)
    if fmt == "json":
        _write(render_json(data))
    elif fmt == "csv":
        sys.stdout.write(render_sessions_csv(data))
    else:
        _write(render_sessions(data, _style()))
    return EXIT_OK


def cmd_record(args, config, now) -> int:
    from .tracking import record_stdin

    result = record_stdin(sys.stdin.buffer, config, now)
    if result is None:
        _write("tracking is off ([tracking] enabled = false): nothing recorded")
        return EXIT_OK
    _write(result.summary())
    if result.rejects:
        _warn(f"malformed lines kept in {', '.join(result.rejects_paths)}")
    return EXIT_OK


def cmd_prune(args, config, now) -> int:
    from .tracking import open_tracking

    opened = open_tracking(config, allow_readonly=False, now=now)  # ingests, then prunes
    pruned = opened.ingested.pruned
    days = config.get("tracking", {}).get("retention_days", 90)
    _write(f"pruned {pruned} record{'s' * (pruned != 1)} older than {days} days")
    return EXIT_OK


def cmd_repair(args, config, now) -> int:
    from .tracking import repair

    for line in repair(config, now):
        _write(line)
    return EXIT_OK


COMMANDS = {"report": cmd_report, "economics": cmd_economics, "discover": cmd_discover,
            "learn": cmd_learn, "session": cmd_session, "record": cmd_record, "prune": cmd_prune, "repair": cmd_repair}


def main(argv=None) -> int:
    import time

    from ctxcrl.console import parse_usage

    args = parse_usage("cc-track", __doc__, sys.argv[1:] if argv is None else argv)
    if isinstance(args, int):
        return args
    from . import store
    from ctxcrl.config import load_config

    command = next(name for name in COMMANDS if args[name])
    try:
        return COMMANDS[command](args, load_config(), time.time())
    except UsageError as exc:
        _warn(str(exc))
        return EXIT_USAGE
    except store.StoreError as exc:
        _warn(str(exc))
        return EXIT_DATABASE
    except BrokenPipeError:
        try:
            sys.stdout = None  # `cc-track report | head`: not an error
        finally:
            return EXIT_OK
    except Exception as exc:  # I/O, disk full, …: one clear line, never a traceback
        import sqlite3

        if isinstance(exc, (OSError, sqlite3.Error)):
            reason = getattr(exc, "strerror", None) or str(exc)
            if "full" in str(exc).lower():
                reason = "the disk is full"
            _warn(f"{command} failed: {reason}")
            return EXIT_ERROR
        raise
