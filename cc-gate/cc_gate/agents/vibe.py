"""Mistral Vibe's own rules for its `bash` tool (measured on mistral-vibe 3.0.2).

Sources, as the client reads them: `[tools.bash]` of the user's `config.toml` (in
`$VIBE_HOME`, default `~/.vibe/`) and of the project's `.vibe/config.toml`, plus
contextcrawler's `[gate]`:
- `denylist`: command prefixes refused outright. Vibe splits a command line into its simple
  commands (its tree-sitter analysis: `&&`, `;`, `|`, subshells) and refuses one that equals
  an entry or starts with the entry and a space (`vim` refuses `vim notes.txt`, not
  `vimdiff`, not `/usr/bin/vim notes.txt`). Unset, its default list applies (`DEFAULT_DENY`);
- `denylist_standalone`: programs refused only when run with no argument at all (`python`,
  `bash`: an interactive session), matched on the program's file name;
- `permission = "never"`: every call refused.
The `allowlist` and `permission = "always"` only let calls through without asking, and this
model never allows, so they are not read.

Vibe filters after execution (its `post_tool` hook replaces what the model receives,
failures included): the command is never changed, so `decide` answers "deny" when a deny
names any peeled spelling of any segment (Vibe's own, or one its prefix match misses: `env
vim`, `/usr/bin/vim`, `bash -c 'vim'`) and "ask" (no answer: Vibe decides on the command as
it is) otherwise. Measured: under `--auto-approve` Vibe 3.0.2 runs what its denylist names; the
hook still refuses it there (it only ever adds denies).

Imports `tomllib` only when a config.toml exists.
"""
from ctxcrl import lean_os as os

from .. import decision
from ..rules import DENY, Rule, RuleSet, add_config, display_path, prefix_matcher, \
    read_cached

NAME = "vibe"
CONFIG_DIR = ".vibe"
#: Vibe's defaults on POSIX (vibe/core/tools/builtins/bash.py in 3.0.2).
DEFAULT_DENY = ("gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs", "bash -i", "sh -i",
                "zsh -i", "fish -i", "dash -i", "screen", "tmux")
DEFAULT_DENY_STANDALONE = ("python", "python3", "ipython", "bash", "sh", "nohup", "vi", "vim",
                           "emacs", "nano", "su")


def vibe_home() -> str:
    from ..rules import home_dir

    value = os.environ.get("VIBE_HOME")
    if value:
        return os.path.realpath(os.path.expanduser(value))
    return os.path.join(home_dir(), CONFIG_DIR)


def config_files(cwd: str) -> list:
    """The config.toml files Vibe reads: the project's (its working directory's `.vibe/`),
    then the user's."""
    files = [os.path.join(cwd, CONFIG_DIR, "config.toml"),
             os.path.join(vibe_home(), "config.toml")]
    return list(dict.fromkeys(files))


def _load_toml(path: str):
    import tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f), None
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return None, f"not valid TOML ({exc})"


def bash_section(config) -> dict:
    tools = config.get("tools") if isinstance(config, dict) else None
    bash = tools.get("bash") if isinstance(tools, dict) else None
    return bash if isinstance(bash, dict) else {}


def standalone_matcher(programs):
    """Vibe's `denylist_standalone`: the program alone, no argument (by its file name too)."""
    names = frozenset(programs)

    def matches(text: str) -> bool:
        words = text.split()
        return len(words) == 1 and (words[0] in names or os.path.basename(words[0]) in names)

    return matches


def _strings(value) -> list | None:
    if not isinstance(value, list):
        return None
    return [v.strip() for v in value if isinstance(v, str) and v.strip()]


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    deny, standalone = [], []
    for path in config_files(cwd):
        config = read_cached(path, rules.warnings, _load_toml)
        if config is None:
            continue
        source = display_path(path)
        rules.files.append(source)
        bash = bash_section(config)
        if bash.get("permission") == "never":
            rules.deny.append(Rule(DENY, 'permission = "never"', "*", source,
                                   lambda text: bool(text.strip())))
        listed = _strings(bash.get("denylist"))
        if listed is not None:
            deny.append((listed, source))
        listed = _strings(bash.get("denylist_standalone"))
        if listed is not None:
            standalone.append((listed, source))
    default = "Vibe's default denylist"
    for entries, source in deny or [(list(DEFAULT_DENY), default)]:
        for entry in entries:
            rules.deny.append(Rule(DENY, entry, entry, source, prefix_matcher(entry)))
    for entries, source in standalone or [(list(DEFAULT_DENY_STANDALONE), default)]:
        if entries:
            rules.deny.append(Rule(DENY, "denylist_standalone " + ", ".join(entries),
                                   "(alone)", source, standalone_matcher(entries)))
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        f"{verdict.reason} (Vibe filters after execution: the command is not changed)"))
