"""The normalised key of a command: what a filter's `match_command` is matched against.

`key_of(['/usr/bin/git', '-C', 'x', '--no-pager', 'log'])` is 'git log': program basename,
runners unwrapped to the tool inside (`uv run python -m pytest -q` → 'pytest -q'), git global
options and a cargo `+toolchain` dropped, words joined by one space. `cc-filter run` calls
this on its argv, so it must stay cheap: no `re`, no imports.
"""

# Programs whose wrapper scripts stand for the tool itself.
_PROGRAM_ALIASES = {"gradlew": "gradle", "gradlew.bat": "gradle", "mvnw": "mvn",
                    "mvnw.cmd": "mvn"}

# Options of the runners that take a value as the next word (the rest are flags).
_UV_RUN_VALUES = frozenset((
    "--with", "--with-editable", "--with-requirements", "--python", "-p", "--package",
    "--extra", "--group", "--no-group", "--only-group", "--env-file", "--directory",
    "--project", "--index", "--default-index", "--index-url", "-i", "--extra-index-url",
    "--find-links", "-f", "--upgrade-package", "-P", "--reinstall-package",
    "--no-binary-package", "--no-build-package", "--refresh-package", "--index-strategy",
    "--keyring-provider", "--resolution", "--prerelease", "--exclude-newer", "--link-mode",
    "--config-setting", "-C", "--cache-dir", "--config-file", "--color",
    "--python-preference", "--allow-insecure-host", "--from", "--no-extra", "--python-platform",
))
_NPX_VALUES = frozenset(("-p", "--package", "--node-options", "--cache", "--userconfig",
                         "--registry", "--prefix", "-w", "--workspace"))
_PNPM_VALUES = frozenset(("--package", "-C", "--dir", "--filter", "-F", "--workspace-root"))
_BUNX_VALUES = frozenset(("-p", "--package", "--bun"))
_PYTHON_VALUES = frozenset(("-X", "-W", "--check-hash-based-pycs"))
_SCRIPT_RUNNERS = frozenset(("poetry", "pdm", "pipenv", "rye", "hatch"))

_GIT_VALUES = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                         "--super-prefix", "--attr-source", "--list-cmds"))


def program_name(word: str) -> str:
    """'/usr/bin/git' → 'git', 'vendor/bin/phpunit' → 'phpunit', './gradlew' → 'gradle'."""
    if "/" in word:
        word = word.rstrip("/").rpartition("/")[2] or word
    return _PROGRAM_ALIASES.get(word, word)


def normalise(argv: list[str]) -> list[str]:
    """argv with the program's basename, runners unwrapped and git global options dropped."""
    words = list(argv)
    for _ in range(8):  # runners nest a few levels at most (uv run python -m pytest)
        if not words:
            return words
        words[0] = program_name(words[0])
        inner = unwrap_runner(words)
        if inner is None or not inner:
            break
        words = inner
    program = words[0]
    if program == "git":
        return ["git"] + _without_git_globals(words, 1)
    if program == "cargo" and len(words) > 1 and words[1].startswith("+"):
        return ["cargo"] + words[2:]
    return words


def key_of(argv: list[str]) -> str:
    """The key a filter is chosen by: normalise(argv) joined by single spaces."""
    return " ".join(normalise(argv))


def unwrap_runner(words: list[str]) -> list[str] | None:
    """The command a runner runs (`uv run pytest` → ['pytest']), or None for no runner."""
    program = words[0]
    second = words[1] if len(words) > 1 else ""
    if program == "uv":
        if second == "run":
            return _after_options(words, 2, _UV_RUN_VALUES, module_flag=True)
        if second == "tool" and len(words) > 2 and words[2] == "run":
            return _without_version(_after_options(words, 3, _UV_RUN_VALUES))
        return None
    if program == "uvx":
        return _without_version(_after_options(words, 1, _UV_RUN_VALUES))
    if program in _SCRIPT_RUNNERS and second == "run":
        return _after_options(words, 2, frozenset())
    if program == "bundle" and second == "exec":
        return _after_options(words, 2, frozenset())
    if program in ("npx", "pnpx"):
        if "-c" in words or "--call" in words:
            return None  # runs a shell string, see cc_peel.layers
        return _without_version(_after_options(words, 1, _NPX_VALUES))
    if program == "npm" and second in ("exec", "x"):
        if "-c" in words or "--call" in words:
            return None
        return _without_version(_after_options(words, 2, _NPX_VALUES))
    if program == "pnpm" and second in ("exec", "dlx"):
        return _without_version(_after_options(words, 2, _PNPM_VALUES))
    if program == "bunx":
        return _without_version(_after_options(words, 1, _BUNX_VALUES))
    if program == "bun" and second == "x":
        return _without_version(_after_options(words, 2, _BUNX_VALUES))
    if program == "yarn" and second in ("dlx", "exec"):
        return _without_version(_after_options(words, 2, _NPX_VALUES))
    if program.startswith("python") or program == "py":
        return _python_module(words)
    return None


def _after_options(words: list[str], k: int, takes_value: frozenset,
                   module_flag: bool = False) -> list[str] | None:
    n = len(words)
    while k < n:
        word = words[k]
        if word == "--":
            k += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if module_flag and (word == "-m" or word == "--module"):
            return words[k + 1:] or None
        k += 2 if word in takes_value else 1
    return words[k:] or None


def _without_version(words: list[str] | None) -> list[str] | None:
    """npx/uvx package specs name the tool: 'vitest@1.2' → 'vitest', '@biomejs/biome' → 'biome'."""
    if not words:
        return words
    spec = words[0]
    at = spec.rfind("@")
    if at > 0:
        spec = spec[:at]
    if spec.startswith("@") and "/" in spec:
        spec = spec.rpartition("/")[2]
    return [spec] + words[1:]


def _python_module(words: list[str]) -> list[str] | None:
    """`python3 -u -m pytest -q` → ['pytest', '-q']; None for a script or -c."""
    program = words[0]
    if program != "py" and not (program == "python" or program[6:].replace(".", "").isdigit()):
        return None
    k, n = 1, len(words)
    while k < n:
        word = words[k]
        if word == "-m":
            return words[k + 1:] or None
        if word.startswith("-m") and len(word) > 2:
            return [word[2:]] + words[k + 1:]
        if not word.startswith("-") or word.startswith("-c") or word == "-" or word == "--":
            return None
        k += 2 if word in _PYTHON_VALUES else 1
    return None


def _without_git_globals(words: list[str], k: int) -> list[str]:
    n = len(words)
    while k < n and words[k].startswith("-"):
        k += 2 if words[k] in _GIT_VALUES else 1
    return words[k:]
