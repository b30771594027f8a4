"""`npm test` / `npm run test…`: the output of the runner behind the script, filtered by that
runner's own filter (jest, vitest, mocha, tsc, pytest, …), without npm's lifecycle banner.

The runner is chosen, in order, from: the script text in `package.json` of the current
directory (`scripts.test` for `npm test`, `scripts.<name>` for `npm run <name>`), else the
banner npm prints first (`> pkg@1.0.0 test` / `> vitest run`). A lifecycle script before or
after it (`pretest`: `eslint src`, `posttest`) gets the filter of its own command, from its
banner on: a lint that fails before the tests is shown as the eslint filter shows it. In a script chain (`tsc &&
jest`) the last command that has a filter wins. Arguments after `--` are appended, as npm does.
The runner's filter comes from the catalogue (`cc_filter.choose.catalogue.lookup` on its key), so a
project or user filter for that runner is honoured. Without a known runner, lines pass through
(ANSI and blank lines dropped). npm's banner, its `npm ERR! A complete log …` pointers and
its own log lines (`npm verbose …`, `npm info …`, `npm timing …` of a verbose loglevel) go,
counted (`... (2 npm lines omitted)`): by the runner's filter among its own counts when it
keeps them (jest, vitest, mocha), else at the end.
Injects nothing. Tested with npm 11.19.1 on Node 20 (scripts running jest 30, vitest 3.2,
mocha 12); npm 7-10 print the same banner.
"""
from ctxcrl import lean_os as os

from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_CHAIN = ("&&", "||", ";", "|")
_NPM_LOG = ("npm verbose ", "npm info ", "npm timing ", "npm http ", "npm silly ", "npm sill ")


def _is_banner(text: str) -> bool:
    """`> checkout@1.0.0 pretest` (npm's lifecycle banner: package@version script)."""
    words = text.split()
    return (len(words) == 3 and words[0] == ">" and "@" in words[1][1:]
            and not text.startswith(">  "))


def script_name(argv: list[str]) -> str:
    """`npm test` → "test"; `npm run test:unit -- x` → "test:unit"."""
    if len(argv) > 2 and argv[1] in ("run", "run-script", "rum", "urn"):
        return argv[2]
    return "test"


def script_args(argv: list[str]) -> list[str]:
    return argv[argv.index("--") + 1:] if "--" in argv else []


def _commands(script: str) -> list[list[str]]:
    """`tsc --noEmit && jest --ci` → [["tsc", "--noEmit"], ["jest", "--ci"]]."""
    for separator in _CHAIN:
        script = script.replace(separator, "\n")
    commands = []
    for part in script.split("\n"):
        words = part.split()
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]  # FOO=1 jest
        if words:
            commands.append(words)
    return commands


def runner_filter(script: str, extra: list[str]):
    """An instance of the filter of the last command of `script` that has one, else None."""
    from cc_filter.choose import catalogue, keys

    commands = _commands(script)
    for at in range(len(commands) - 1, -1, -1):
        argv = commands[at] + extra if at == len(commands) - 1 else commands[at]
        try:
            entry = catalogue.lookup(keys.key_of(argv), warn=False)
            if entry is None or entry.name == NpmTest.name:
                continue
            return catalogue.load(entry)(argv)
        except Exception:
            continue
    return None


def package_script(name: str) -> str | None:
    try:
        with open(os.path.join(os.getcwd(), "package.json"), "rb") as f:
            data = f.read()
    except OSError:
        return None
    import json

    try:
        scripts = json.loads(data).get("scripts") or {}
    except (ValueError, AttributeError):
        return None
    script = scripts.get(name)
    return script if isinstance(script, str) else None


class NpmTest(Filter):
    name = "npm-test"
    match_command = r"^npm (test|t|tst|(run|run-script) test[\w:.-]*)(\s|$)"
    description = "npm test: the test runner behind the script, through that runner's filter"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.script_name = script_name(argv)
        self.extra = script_args(argv)
        self.inner = None
        self.decided = False
        script = package_script(self.script_name)
        if script is not None:
            self.inner = runner_filter(script, self.extra)
            self.decided = True
        self.banner = 0  # lifecycle banners seen (`> pkg@1.0.0 test` + `> command`)
        self.banner_script: str | None = None  # the script a banner just named
        self.fed = 0  # lines handed to the current script's filter
        self.counts: dict[str, int] = {}  # npm's own lines dropped, when the runner's
        # filter does not count them with its own

    def feed(self, line: str):
        text = strip_ansi(line).rstrip()
        if text.startswith(_NPM_LOG):
            # npm's own log lines (`--loglevel=verbose`, `npm_config_loglevel`)
            self._count()
            return
        if self.banner_script is not None:  # the line after `> pkg@1.0.0 pretest`
            script, self.banner_script = self.banner_script, None
            if text.startswith("> "):
                self._count()
                yield from self._switch(script, text[2:])
                return
        if _is_banner(text):
            # each lifecycle script (`pretest`, `test`, `posttest`) opens with its banner:
            # its output goes through the filter of the command it runs
            self.banner_script = text.split()[-1]
            self.banner += 1
            self._count()
            return
        if self.fed == 0 and not text.strip():  # blank lines around a banner
            return
        if text.startswith(("npm ERR! A complete log", "npm error A complete log")) or (
                text.startswith(("npm ERR!     ", "npm error     ")) and text.endswith(".log")):
            self._count()
            return
        if not self.decided:
            self.decided = True
        self._hand_counts()
        self.fed += 1
        if self.inner is not None:
            yield from self.inner.feed(line)
        elif text.strip():
            yield text

    def _switch(self, script: str, command: str):
        """A new lifecycle script began: the one before it ended well (npm stops at a
        failure), so its filter finishes with 0; the new one's filter takes over."""
        if self.fed and self.inner is not None:
            yield from self.inner.finish(0)
        self.fed = 0
        if script == self.script_name:
            main = package_script(self.script_name)
            self.inner = runner_filter(main if main is not None else command, self.extra)
        else:
            self.inner = runner_filter(command, [])
        self.decided = True

    def _count(self) -> None:
        # handed to the runner's filter with the next line it gets (or at the end)
        self.counts["npm lines"] = self.counts.get("npm lines", 0) + 1

    def _hand_counts(self) -> None:
        """npm's counts go to the runner's filter when it counts its own (a JsTestReport)."""
        from cc_filter.filters.js._js_test import JsTestReport

        inner_count = self.inner.count if isinstance(self.inner, JsTestReport) else None
        if inner_count is not None:
            for kind, n in self.counts.items():
                inner_count(kind, n)
            self.counts = {}

    def finish(self, exit_code: int):
        self._hand_counts()
        if self.inner is not None:
            yield from self.inner.finish(exit_code)
        for kind, n in self.counts.items():
            yield omitted(n, kind)
