"""Helper functions for the cc-filter tests (fixtures are in conftest.py)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TEST_FILTERS = os.path.join(HERE, "demo_filters")


def toml_filter(name: str, match: str, **stages) -> str:
    """A minimal TOML filter file text."""
    lines = ["schema_version = 1", "[filter]", f'name = "{name}"',
             f"match_command = '{match}'"]
    for key, value in stages.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, int):
            lines.append(f"{key} = {value}")
        elif isinstance(value, str):
            lines.append(f"{key} = '{value}'")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            lines.append(f"{key} = [{', '.join(repr(v) for v in value)}]")
        else:
            raise TypeError(key)
    return "\n".join(lines) + "\n"


def cc_filter(*args, input=None, env=None, timeout=60, **kw) -> subprocess.CompletedProcess:
    """Run the real CLI in a subprocess (bytes in, bytes out)."""
    return subprocess.run([sys.executable, "-m", "cc_filter", *args], input=input,
                          capture_output=True, env=env, timeout=timeout, **kw)


def spool_records(home) -> list[dict]:
    import json

    path = os.path.join(str(home), "spool.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
