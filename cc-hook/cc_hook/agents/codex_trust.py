"""Codex's hook trust: our `[hooks.state."…"] trusted_hash` table in `$CODEX_HOME/config.toml`.

Codex 0.171 runs a hook only when this entry holds the SHA-256 of the compact, key-sorted JSON
`{"event_name": "pre_tool_use", "matcher": …, "hooks": [{"type", "command", "timeout",
"async"}]}` of the handler, keyed `<abs hooks.json>:pre_tool_use:<group index>:<handler index>`
(`post_tool_use` for the PostToolUse handler)
(verified against the client: tests/agents/codex/). Cold path: `init`, `uninstall`, `verify`.
"""
import hashlib
import json
import os
import tomllib

from ..artifacts import UNKNOWN, Artifact
from ..settings_file import MalformedSettings, parse_settings, read_text


class HookTrust(Artifact):
    """Our `[hooks.state."…"] trusted_hash` table in Codex's config.toml, the rest of the file
    kept byte for byte (the table goes at the end, after a marker comment)."""

    kind = "trust"
    mode = 0o600
    backup = True
    MARK = "# contextcrawler: Codex runs its hook only when trusted (cc-hook uninstall removes this)"

    def __init__(self, path: str, registration, project: str | None = None):
        super().__init__(path, "hook trust (hooks.state trusted_hash)")
        self.registration = registration
        #: For a project install: Codex loads `<project>/.codex/hooks.json` only when the
        #: project is trusted (`[projects."<dir>"] trust_level = "trusted"`), the user's call.
        self.project = project
        #: Codex's name for the event: PreToolUse → pre_tool_use, PostToolUse → post_tool_use
        self.event_name = "".join("_" + c.lower() if c.isupper() else c
                                  for c in registration.keys[-1]).lstrip("_")

    # -- what Codex expects
    def expected(self, hooks_text: str | None):
        """(state key, trusted_hash) for our handler in `hooks_text` (hooks.json after
        install), or None when our entry is not in it."""
        data = parse_settings(self.registration.path, hooks_text).data
        event = self.registration.keys[-1]  # ("hooks", "PreToolUse"): the event it registers
        groups = data.get("hooks", {}).get(event) if isinstance(data.get("hooks"), dict) else None
        ours = self.registration.entry
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if handler != ours["hooks"][0] or group.get("matcher") != ours["matcher"]:
                    continue
                identity = {"event_name": self.event_name, "matcher": group.get("matcher"),
                            "hooks": [{"type": handler.get("type", "command"),
                                       "command": handler.get("command"),
                                       "timeout": handler.get("timeout", 600),
                                       "async": handler.get("async", False)}]}
                blob = json.dumps(identity, sort_keys=True, separators=(",", ":"))
                key = f"{self.registration.path}:{self.event_name}:{g}:{h}"
                return key, "sha256:" + hashlib.sha256(blob.encode()).hexdigest()
        return None

    def _hooks_after_install(self) -> str | None:
        current = read_text(self.registration.path)
        return self.registration.add(current)

    def _block(self, key: str, digest: str) -> str:
        return f"{self.MARK}\n[hooks.state.{json.dumps(key)}]\ntrusted_hash = {json.dumps(digest)}\n"

    # -- reading config.toml
    def _parse(self, text: str | None) -> dict:
        try:
            return tomllib.loads(text or "")
        except tomllib.TOMLDecodeError as exc:
            raise MalformedSettings(self.path, f"is not valid TOML ({exc})") from None

    @staticmethod
    def _state(data: dict) -> dict:
        hooks = data.get("hooks")
        state = hooks.get("state") if isinstance(hooks, dict) else None
        return state if isinstance(state, dict) else {}

    def problem(self, current: str | None) -> str | None:
        """Why Codex would not run our installed hook (None: it is trusted)."""
        try:
            expected = self.expected(read_text(self.registration.path))
        except MalformedSettings as exc:
            return f"{exc.path} {exc.problem}"
        if expected is None:
            return "the hook is not registered in hooks.json"
        key, digest = expected
        try:
            entry = self._state(self._parse(current)).get(key)
        except MalformedSettings as exc:
            return f"Codex cannot read {exc.path}: {exc.problem}"
        if not isinstance(entry, dict) or "trusted_hash" not in entry:
            return (f"Codex will not run the hook: it is not trusted in {self.path} "
                    "(run `cc-hook init --agent codex` again)")
        if entry.get("trusted_hash") != digest:
            return (f"Codex will not run the hook: its trusted_hash in {self.path} does not "
                    "match the registered hook (run `cc-hook init --agent codex` again)")
        if self.project is not None and not self._project_trusted(self._parse(current)):
            return (f"Codex will not run the hook: it reads {self.project}/.codex/ only in a "
                    f"trusted project (trust it in Codex, or install with --global)")
        return None

    def _project_trusted(self, data: dict) -> bool:

        projects = data.get("projects")
        if not isinstance(projects, dict):
            return False
        here = os.path.abspath(self.project)
        while True:
            entry = projects.get(here)
            if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
                return True
            parent = os.path.dirname(here)
            if parent == here:
                return False
            here = parent

    def present(self, current):
        """Our entry is there with the right hash (the project's trust is the user's)."""
        saved, self.project = self.project, None
        try:
            return self.problem(current) is None
        finally:
            self.project = saved

    def registered(self, current):
        return self.present(current)

    # -- changing config.toml
    def add(self, current):
        before = self._parse(current)
        expected = self.expected(self._hooks_after_install())
        if expected is None:
            raise MalformedSettings(self.registration.path, "does not hold our hook entry")
        key, digest = expected
        entry = self._state(before).get(key)
        if isinstance(entry, dict) and entry.get("trusted_hash") == digest:
            return current
        text = self.strip(current) if current is not None else ""
        if entry is not None and key in self._state(self._parse(text)):
            raise MalformedSettings(self.path, f"already has a hooks.state entry for {key} "
                                               "that is not contextcrawler's: set its "
                                               f"trusted_hash to {digest} by hand")
        if text and not text.endswith("\n"):
            text += "\n"
        new = text + ("\n" if text.strip() else "") + self._block(key, digest)
        after = self._parse(new)
        want = self._parse(text)
        want.setdefault("hooks", {}).setdefault("state", {})[key] = {"trusted_hash": digest}
        if after != want:
            raise MalformedSettings(self.path, "cannot be edited safely to add the hook's "
                                               f"trusted_hash ([hooks.state.\"{key}\"])")
        return new

    def strip(self, current):
        if current is None:
            return None
        lines = current.splitlines(keepends=True)
        # only the block of this hooks.json: a global and a project install each have one
        ours = "[hooks.state." + json.dumps(f"{self.registration.path}:{self.event_name}:")[:-1]
        out, i = [], 0
        while i < len(lines):
            nxt = lines[i + 1].lstrip() if i + 1 < len(lines) else ""
            if lines[i].rstrip("\r\n") == self.MARK and nxt.startswith(ours):
                j = i + 2
                while j < len(lines) and not lines[j].lstrip().startswith(("[", "#")):
                    j += 1
                if out and not out[-1].strip():  # the blank line add() put before the block
                    out.pop()
                i = j
                continue
            out.append(lines[i])
            i += 1
        return "".join(out)

    def remove(self, current, original=UNKNOWN):
        if current is None:
            return None
        stripped = self.strip(current)
        if original is None and not stripped.strip():
            return None  # the file was ours alone
        if isinstance(original, str) and stripped.rstrip("\n") == original.rstrip("\n"):
            return original  # nothing else changed: the exact bytes back
        return stripped

    def snippet(self) -> str:
        expected = self.expected(self._hooks_after_install())
        return self._block(*expected) if expected else ""
