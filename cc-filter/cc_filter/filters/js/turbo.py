"""turbo run: what each task printed, errors, the Tasks/Cached/Time/Failed summary; scope and
cache lines, npm's script echo (`ui:build: > ui@1.0.0 build`), npm's error boilerplate, the
`No locally installed turbo` advice dropped, counted at the end in one marker (`... (13
turbo/npm boilerplate lines omitted)`), and `no output files found for task …` warnings said
once for all their tasks."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_NOISE = LazyPattern(
    r"^(\s+• (Packages in scope|Running \S+ in \d+ packages?|Remote caching (disabled|enabled))"
    r"|[\w@/.-]+:[\w:.-]+: (cache (miss|hit|bypass)|> |npm error (Lifecycle script|code \d|"
    r"path |workspace |location |command failed|command sh -c)|$)|[\w@/.-]+:[\w:.-]+:$|"
    r"\s*WARNING\s+No locally "
    r"installed `turbo` found|\s*$)")
_NO_OUTPUT = LazyPattern(r"^\s*WARNING\s+no output files found for task (\S+)\. ")


class Turbo(Filter):
    name = "turbo"
    match_command = r"^turbo (run|build|test|lint|typecheck|check)(\s|$)"
    description = "turbo run: task output and errors, the summary; cache and scope lines dropped"

    def __init__(self, argv):
        super().__init__(argv)
        self.no_output: list[str] = []
        self.noise = 0  # scope, cache, npm echo and error boilerplate, advice lines dropped

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if _NOISE.match(line):
            self.noise += bool(line.strip())  # a task's empty line (`web:build:`) too
            return
        m = _NO_OUTPUT.match(line)
        if m is not None:
            self.no_output.append(m.group(1))
            return
        yield line

    def finish(self, exit_code):
        if self.no_output:
            yield (f"WARNING  no output files found for tasks {', '.join(self.no_output)} "
                   f"(check the `outputs` key in turbo.json)")
        if self.noise:
            yield omitted(self.noise, "turbo/npm boilerplate lines")
