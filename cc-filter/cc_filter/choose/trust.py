"""Trust for project filters (ARCHITECTURE §6.4): SHA-256 pins in `trusted.json`.

A project's `.ctxcrl/filters/*.toml` can hide errors or rewrite what the agent sees, so such a
file is used only after `cc-filter trust` recorded its SHA-256; editing the file revokes it
(the hash no longer matches). Nothing in the environment trusts a filter: the pins are read
only from a data folder the user alone controls (`ctxcrl.home.trusted_home()`: not inside the
project, owned by the user, not writable by others), and `trusted.json` itself must be the
user's and not writable by others. (A CI job that wants its project's filters runs
`cc-filter trust --yes` in a step of its own.)

`trusted.json` is `{"version": 1, "files": {"<absolute path>": "<sha256 hex>"}}`, written
atomically with mode 0600. `json` is imported only here, and this module only when a project
filter is actually about to be used (or by `cc-filter trust`/`untrust`).
"""
from ctxcrl import lean_os as os

from ctxcrl import home

UNTRUSTED = "untrusted"
CHANGED = "changed"
TRUSTED = "trusted"


def sha256_of(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> str:
    with open(path, "rb") as f:
        return sha256_of(f.read())


def load(path: str | None = None) -> dict:
    """The recorded pins: {absolute path: sha256}. A missing or broken file pins nothing."""
    import json

    if path is None:
        if not home.trusted_home():
            return {}
        path = home.trusted_path()
        reason = home.distrust_reason(path)
        if reason:
            home.warn_untrusted_once(reason)
            return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def save(files: dict, path: str | None = None) -> None:
    import json

    if path is None:
        reason = home.untrusted_home()
        if reason:
            raise OSError(f"not recording trust: {reason}")
    target = path or home.trusted_path()
    home.ensure_private_dir(os.path.dirname(target))
    tmp = f"{target}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"version": 1, "files": dict(sorted(files.items()))}, f, indent=2)
        f.write("\n")
    os.replace(tmp, target)


def status(path: str, sha256: str) -> str:
    """TRUSTED, UNTRUSTED (never trusted) or CHANGED (trusted, then edited)."""
    pinned = load().get(os.path.abspath(path))
    if pinned is None:
        return UNTRUSTED
    return TRUSTED if pinned == sha256 else CHANGED


def trust(path: str) -> str:
    """Record the file's current SHA-256; returns it."""
    path = os.path.abspath(path)
    digest = file_sha256(path)
    files = load()
    files[path] = digest
    save(files)
    return digest


def untrust(path: str) -> bool:
    """Forget the file's pin; True when there was one."""
    path = os.path.abspath(path)
    files = load()
    if path not in files:
        return False
    del files[path]
    save(files)
    return True


def risky_rules(spec: dict) -> list[str]:
    """What a reviewer must look at before trusting a filter: every replace and match_output
    rule, and catch-all patterns that drop or keep every line."""
    from cc_filter.kit.patterns import is_catch_all

    risks = []
    for pattern, replacement in spec.get("replace", ()):
        risks.append(f"replace: {pattern!r} -> {replacement!r} (rewrites what the agent sees)")
    for pattern, message, unless in spec.get("match_output", ()):
        extra = f" unless {unless!r}" if unless else ""
        risks.append(f"match_output: {pattern!r}{extra} -> {message!r} (replaces the whole output)")
    if is_catch_all(spec.get("match_command", "")):
        risks.append(f"match_command: {spec['match_command']!r} matches every command")
    for key, slot in (("strip_lines_matching", "strip"), ("keep_lines_matching", "keep")):
        for pattern in spec.get(slot) or ():
            if is_catch_all(pattern):
                risks.append(f"{key}: {pattern!r} matches every line")
    return risks
