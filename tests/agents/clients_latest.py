"""Run the real-client tables on each client's newest release and print what differs from the
pinned run (`just clients-latest`; CI keeps running the pinned versions).

Usage:
  clients_latest.py [--always] [<agent>...]
  clients_latest.py (-h | --help)

Options:
  --always   Run the tables even when the newest release is the pinned one.
  -h --help  Show this help.

For each agent (default: all of tests/agents/harness.py's CLIENTS): `npm view <package>
version` (`pip index versions <package>` for the PyPI clients) gives the newest release. When it is the pinned one there is nothing to compare
(unless --always). Otherwise the agent's folder `tests/agents/<agent>/` runs twice, pinned and
newest (`CTXCRL_CLIENT_VERSION_<AGENT>`, which harness.install_client honours), each with a
JUnit report, and every test whose outcome differs is printed with the newest run's first
failure line. Exit code: 0 when nothing differs, 1 when something does, 2 when a version
cannot be looked up; 64 on a usage error.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402


def newest(package: str, python: tuple | None = None) -> str | None:
    """The newest release on npm, or on PyPI for a package that runs on `python` (x, y)."""
    if python:  # "mistral-vibe (3.0.3)" on its first line
        done = subprocess.run([sys.executable, "-m", "pip", "index", "versions", package,
                               "--python-version", ".".join(map(str, python))],
                              capture_output=True, text=True, timeout=120)
        first = done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""
        version = first.partition("(")[2].rstrip(")").strip()
        return version if done.returncode == 0 and version else None
    done = subprocess.run(["npm", "view", package, "version"], capture_output=True, text=True,
                          timeout=120)
    version = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return version if done.returncode == 0 and version else None


def run_table(agent: str, version: str, report: Path) -> dict:
    """{test id: (outcome, first message line)} of one run of the agent's folder."""
    env = dict(os.environ, **{f"CTXCRL_CLIENT_VERSION_{agent.upper()}": version})
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
                    f"--junitxml={report}", str(HERE / agent)], env=env, cwd=harness.ROOT)
    results = {}
    if not report.exists():
        return results
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        outcome, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            found = case.find(kind)
            if found is not None:
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[kind]
                message = (found.get("message") or found.text or "").strip().splitlines()[:1]
                message = message[0][:200] if message else ""
                break
        results[name] = (outcome, message)
    return results


def compare(agent: str, always: bool) -> int:
    package, pinned, _binary = harness.CLIENTS[agent]
    pypi = harness.PYPI_CLIENTS.get(agent)
    latest = newest(package, pypi)
    if latest is None:
        print(f"{agent}: cannot look up the newest {package} "
              f"({'pip index versions' if pypi else 'npm view'} failed)")
        return 2
    if latest == pinned and not always:
        print(f"{agent}: {package} newest {latest} = pinned: nothing to compare")
        return 0
    with tempfile.TemporaryDirectory(prefix="ctxcrl-latest-") as tmp:
        before = run_table(agent, pinned, Path(tmp) / "pinned.xml")
        after = run_table(agent, latest, Path(tmp) / "latest.xml")
    differ = [(name, before.get(name, ("absent", "")), after.get(name, ("absent", "")))
              for name in sorted(set(before) | set(after))
              if before.get(name, ("absent",))[0] != after.get(name, ("absent",))[0]]
    print(f"{agent}: {package} pinned {pinned}, newest {latest}: {len(after)} tests, "
          f"{len(differ)} differ")
    for name, (was, _), (now, message) in differ:
        print(f"  {name}: {was} -> {now}" + (f": {message}" if message else ""))
    return 1 if differ else 0


def main(argv=None) -> int:
    from docopt import DocoptExit, docopt

    try:
        opts = docopt(__doc__, argv)
    except DocoptExit as exc:
        print(exc, file=sys.stderr)
        return 64
    agents = opts["<agent>"] or list(harness.CLIENTS)
    unknown = [a for a in agents if a not in harness.CLIENTS]
    if unknown:
        print(f"clients_latest: unknown agent {unknown[0]!r} (one of "
              f"{', '.join(harness.CLIENTS)})", file=sys.stderr)
        return 64
    return max(compare(agent, opts["--always"]) for agent in agents)


if __name__ == "__main__":
    sys.exit(main())
