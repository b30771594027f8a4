"""What `init` writes and `uninstall` takes back, one class per kind of change.

Every artifact turns a file's current text into the installed text (`add`) and back
(`remove`). `remove` restores the exact original bytes whenever nothing else changed since
install (current == add(original)); otherwise it strips only contextcrawler's part and keeps
everything the user changed. Texts are `str | None` (None: the file does not exist). Cold path.
"""
import copy
import json
import os

from .hook_script import is_ctxcrl_command
from .settings_file import MalformedSettings, parse_settings

UNKNOWN = object()
"""`original` when hooks.json has no record of the file before install."""


class Artifact:
    kind = "file"
    mode = 0o644
    backup = True
    """Copy the previous bytes to `<file>.bak` before changing a user's file."""

    def __init__(self, path: str, description: str):
        self.path = path
        self.description = description

    def add(self, current: str | None) -> str | None:
        raise NotImplementedError

    def strip(self, current: str) -> str | None:
        raise NotImplementedError

    def present(self, current: str | None) -> bool:
        raise NotImplementedError

    def registered(self, current: str | None) -> bool:
        """Ours is there in some form (`present`: exactly what `add` writes)."""
        return self.present(current)

    def remove(self, current: str | None, original=UNKNOWN) -> str | None:
        if current is None:
            return None
        if original is not UNKNOWN:
            try:
                if self.add(original) == current:
                    return original
                # Only our part differs (e.g. it was written by another version, or with
                # another cc-filter path): still the user's exact bytes.
                if original is not None and \
                        self.strip(current) == self.strip(self.add(original)):
                    return original
            except MalformedSettings:
                pass
        stripped = self.strip(current)
        if original is None and stripped is not None and not stripped.strip():
            return None
        return stripped


class OwnedFile(Artifact):
    """A whole file that is contextcrawler's (awareness note, plugin, hook script)."""

    def __init__(self, path: str, content: str, description: str, mode: int = 0o644,
                 kind: str = "file"):
        super().__init__(path, description)
        self.content = content
        self.mode = mode
        self.kind = kind
        self.backup = False  # ours entirely: nothing of the user's to keep

    def add(self, current):
        return self.content

    def strip(self, current):
        return None

    def present(self, current):
        return current is not None


class LineInFile(Artifact):
    """One line of ours in a user's file (`@CONTEXTCRAWLER.md` in CLAUDE.md)."""

    kind = "line"

    def __init__(self, path: str, line: str, description: str):
        super().__init__(path, description)
        self.line = line

    def present(self, current):
        return current is not None and self.line in current.splitlines()

    def add(self, current):
        if current is None or not current.strip():
            return self.line + "\n"
        if self.present(current):
            return current
        separator = "" if current.endswith("\n") else "\n"
        return f"{current}{separator}\n{self.line}\n"

    def strip(self, current):
        kept = []
        for line in current.splitlines(keepends=True):
            if line.rstrip("\r\n") == self.line:
                if kept and not kept[-1].strip():
                    kept.pop()  # the blank line `add` put before ours
                continue
            kept.append(line)
        return "".join(kept)


class MarkedBlock(Artifact):
    """A block between marker comments in a rules file (.clinerules, .windsurfrules)."""

    kind = "block"
    BEGIN = "<!-- ctxcrl:begin (written by cc-hook init; cc-hook uninstall removes it) -->"
    END = "<!-- ctxcrl:end -->"

    def __init__(self, path: str, body: str, description: str):
        super().__init__(path, description)
        self.block = f"{self.BEGIN}\n{body.rstrip()}\n{self.END}\n"

    def _span(self, text):
        start = text.find(self.BEGIN)
        if start < 0:
            return None
        end = text.find(self.END, start)
        if end < 0:
            return None
        end += len(self.END)
        if text[end:end + 1] == "\n":
            end += 1
        return start, end

    def present(self, current):
        return current is not None and self._span(current) is not None

    def add(self, current):
        if current is None or not current.strip():
            return self.block
        span = self._span(current)
        if span:
            return current[:span[0]] + self.block + current[span[1]:]
        separator = "" if current.endswith("\n") else "\n"
        return f"{current}{separator}\n{self.block}"

    def strip(self, current):
        span = self._span(current)
        if not span:
            return current
        before, after = current[:span[0]], current[span[1]:]
        if before.endswith("\n\n") and not after:
            before = before[:-1]
        return before + after


class TomlBlock(MarkedBlock):
    """A block of TOML tables between marker comments in an agent's TOML file (Mistral Vibe's
    `[[hooks]]` in hooks.toml): the user's own tables stay as they are, byte for byte."""

    BEGIN = "# ctxcrl:begin (written by cc-hook init; cc-hook uninstall removes it)"
    END = "# ctxcrl:end"


class JsonRegistration(Artifact):
    """Our hook entry in a list inside an agent's JSON settings (`hooks.PreToolUse`, …).

    nested: entries are matcher groups `{"matcher": …, "hooks": [{…, "command": …}]}` (Claude,
    Gemini, Codex); otherwise the entries are the hooks themselves (Cursor, Copilot).
    seed: top-level keys a new file starts with (e.g. `{"version": 1}`).
    """

    kind = "settings"

    def __init__(self, path: str, keys: tuple, entry: dict, nested: bool, description: str,
                 seed: dict | None = None):
        super().__init__(path, description)
        self.keys = keys
        self.entry = entry
        self.nested = nested
        self.seed = seed or {}

    @classmethod
    def matcher_group(cls, path: str, event: str, matcher: str, command: str):
        """`hooks.<event> += {"matcher": …, "hooks": [{"type": "command", "command": …}]}`
        (Claude, Codex, Gemini)."""
        return cls(path, ("hooks", event),
                   {"matcher": matcher, "hooks": [{"type": "command", "command": command}]},
                   nested=True, description=f"hooks.{event} (matcher {matcher})")

    # -- reading
    def _list(self, data: dict, create: bool):
        node = data
        for key in self.keys[:-1]:
            child = node.get(key)
            if child is None and create:
                child = node[key] = {}
            if child is None:
                return None
            if not isinstance(child, dict):
                raise MalformedSettings(self.path, f'"{key}" is not a JSON object')
            node = child
        items = node.get(self.keys[-1])
        if items is None and create:
            items = node[self.keys[-1]] = []
        if items is not None and not isinstance(items, list):
            raise MalformedSettings(self.path, f'"{".".join(self.keys)}" is not a JSON array')
        return items

    def _is_ours(self, hook) -> bool:
        return isinstance(hook, dict) and is_ctxcrl_command(hook.get("command"))

    def _contains_ours(self, item) -> bool:
        if not self.nested:
            return self._is_ours(item)
        hooks = item.get("hooks") if isinstance(item, dict) else None
        return isinstance(hooks, list) and any(self._is_ours(h) for h in hooks)

    def present(self, current):
        try:
            items = self._list(parse_settings(self.path, current).data, create=False)
        except MalformedSettings:
            return False
        return bool(items) and any(item == self.entry for item in items)

    def registered(self, current):
        """Also an entry of ours that differs from what init writes (e.g. an older one)."""
        if self.present(current):
            return True
        try:
            items = self._list(parse_settings(self.path, current).data, create=False)
        except MalformedSettings:
            return False
        return bool(items) and any(self._contains_ours(item) for item in items)

    # -- changing
    def _without_ours(self, data: dict) -> dict:
        data = copy.deepcopy(data)
        items = self._list(data, create=False)
        if items is None:
            return data
        kept = []
        for item in items:
            if not self._contains_ours(item):
                kept.append(item)
            elif self.nested:
                others = [h for h in item["hooks"] if not self._is_ours(h)]
                if others:
                    kept.append(dict(item, hooks=others))
        items[:] = kept
        self._prune(data)
        return data

    def _prune(self, data: dict) -> None:
        """Drop the containers our removal left empty, innermost first."""
        chain = [data]
        for key in self.keys[:-1]:
            node = chain[-1].get(key)
            if not isinstance(node, dict):
                return
            chain.append(node)
        for depth in range(len(self.keys) - 1, -1, -1):
            node, key = chain[depth], self.keys[depth]
            if node.get(key) in ([], {}):
                del node[key]
            else:
                break

    def add(self, current):
        settings = parse_settings(self.path, current)
        data = settings.data
        items = self._list(copy.deepcopy(data), create=True)  # type-check before changing
        ours = [item for item in items if self._contains_ours(item)]
        if len(ours) == 1 and ours[0] == self.entry:
            return current
        new = self._without_ours(data)
        if not data:
            new = {**self.seed, **new}
        self._list(new, create=True).append(copy.deepcopy(self.entry))
        return settings.render(new)

    def strip(self, current):
        settings = parse_settings(self.path, current)
        new = self._without_ours(settings.data)
        if new == settings.data:
            return current
        return settings.render(new)

    def remove(self, current, original=UNKNOWN):
        result = super().remove(current, original)
        if result is None or result is original or original is UNKNOWN:
            return result
        # Nothing but our entry differs from the original → give back its exact bytes.
        try:
            if parse_settings(self.path, result).data == parse_settings(self.path, original).data:
                return original
        except MalformedSettings:
            pass
        if original is None and parse_settings(self.path, result).data in ({}, self.seed):
            return None
        return result

    def snippet(self) -> str:
        """The entry to add by hand, for the manual instructions."""
        return json.dumps(self.entry, indent=2)


class JsonRegistrations(JsonRegistration):
    """Several of our entries in one settings file, changed together as one planned change
    (Claude Code: `hooks.PreToolUse` and `hooks.PreSkillShellCommand`): each part is added,
    stripped and checked in turn. Registered only when every part is."""

    def __init__(self, parts: list, description: str):
        first = parts[0]
        super().__init__(first.path, first.keys, first.entry, first.nested, description,
                         first.seed)
        self.parts = parts

    def add(self, current):
        for part in self.parts:
            current = part.add(current)
        return current

    def strip(self, current):
        for part in self.parts:
            if current is None:
                return None
            current = part.strip(current)
        return current

    def present(self, current):
        return all(part.present(current) for part in self.parts)

    def registered(self, current):
        return all(part.registered(current) for part in self.parts)

    def snippet(self) -> str:
        texts = [json.dumps(self.parts[0].entry, indent=2)]
        for part in self.parts[1:]:
            texts.append(f'and to "{".".join(part.keys)}":\n' + json.dumps(part.entry, indent=2))
        return "\n".join(texts)


class ConfigValue(Artifact):
    """`filter_bin = "<path>"` under `[hooks]` in config.toml, the rest of the file kept."""

    kind = "config"
    SECTION = "hooks"

    def __init__(self, path: str, key: str, value: str, description: str):
        super().__init__(path, description)
        self.key = key
        self.value = value
        self.line = f"{key} = {json.dumps(value)}\n"

    def _parse(self, text):
        import tomllib

        try:
            return tomllib.loads(text or "")
        except tomllib.TOMLDecodeError as exc:
            raise MalformedSettings(self.path, f"is not valid TOML ({exc})") from None

    def _section_bounds(self, lines):
        start = None
        for i, line in enumerate(lines):
            head = line.split("#", 1)[0].strip()
            if start is None and head == f"[{self.SECTION}]":
                start = i
            elif start is not None and head.startswith("[") and head.endswith("]"):
                return start, i
        return (start, len(lines)) if start is not None else None

    def _key_line(self, lines, bounds):
        for i in range(bounds[0] + 1, bounds[1]):
            name = lines[i].split("=", 1)[0].strip()
            if "=" in lines[i] and name == self.key:
                return i
        return None

    def present(self, current):
        try:
            return self._parse(current).get(self.SECTION, {}).get(self.key) == self.value
        except MalformedSettings:
            return False

    def add(self, current):
        before = self._parse(current)
        if before.get(self.SECTION, {}).get(self.key) == self.value:
            return current
        text = current or ""
        lines = text.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        bounds = self._section_bounds(lines)
        if bounds is None:
            lines += (["\n"] if text.strip() else []) + [f"[{self.SECTION}]\n", self.line]
        else:
            index = self._key_line(lines, bounds)
            if index is None:
                lines.insert(bounds[0] + 1, self.line)
            else:
                lines[index] = self.line
        new = "".join(lines)
        after = self._parse(new)
        expected = copy.deepcopy(before)
        expected.setdefault(self.SECTION, {})[self.key] = self.value
        if after != expected:
            raise MalformedSettings(self.path, f"cannot be edited safely to set [{self.SECTION}] "
                                               f"{self.key}")
        return new

    def strip(self, current):
        lines = current.splitlines(keepends=True)
        bounds = self._section_bounds(lines)
        if bounds is None:
            return current
        index = self._key_line(lines, bounds)
        if index is None:
            return current
        try:
            if self._parse(current).get(self.SECTION, {}).get(self.key) != self.value:
                return current  # the user changed it: theirs now
        except MalformedSettings:
            return current
        del lines[index]
        return "".join(lines)


class RecordedFile(Artifact):
    """A file hooks.json says an install changed, that the agent's module no longer lists
    there (another version of these tools, `CLAUDE_CONFIG_DIR` moved…): uninstall gives back
    its original only when it is still exactly what init wrote (same SHA-256); else it is
    left as it is."""

    kind = "recorded"

    def __init__(self, path: str, sha256: str | None, description: str = "written by init"):
        super().__init__(path, description)
        self.sha256 = sha256

    def _untouched(self, current) -> bool:
        import hashlib

        return current is not None and self.sha256 is not None and \
            hashlib.sha256(current.encode("utf-8")).hexdigest() == self.sha256

    def add(self, current):
        return current

    def strip(self, current):
        return current

    def present(self, current):
        return self._untouched(current)

    def registered(self, current):
        return False  # its backup is only put back from the record of what it held

    def remove(self, current, original=UNKNOWN):
        if original is not UNKNOWN and self._untouched(current):
            return original
        return current


def describe_change(path: str, old: str | None, new: str | None) -> str:
    """A unified diff for --dry-run."""
    import difflib

    if new is None:
        return f"--- {path}\n(deleted)\n"
    diff = difflib.unified_diff((old or "").splitlines(keepends=True),
                                new.splitlines(keepends=True),
                                fromfile=path if old is not None else "/dev/null", tofile=path)
    text = "".join(line if line.endswith("\n") else line + "\n" for line in diff)
    return text


def file_mode(path: str, default: int) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return default
