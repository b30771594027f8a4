"""Every omission is counted (issue 14, principle 2): on every fixture run of every filter,
successful or failed, each raw line that does not reach the answer must be accounted for by the counts of
the `... (N <kind> omitted)` markers, and a run that dropped anything must end with the tee hint
(`[full output: …]`) so the raw output can be recovered (`cc-filter raw`).

A raw line "reaches the answer" when its text (ANSI and redraws resolved, stripped) is part of
a line of the output (so `line (×3)`, an indented or prefixed copy count), or when the filter
states it in its own words: `RESTATED` lists, per filter, the raw lines it rewrites (as
regexes matched at the start of the line) — a summary such as `Successfully installed a b`
becoming `installed: a, b`. Blank lines carry nothing and are not counted. A line printed k
times reaches the answer only as often as the answer shows it; `line (×N)` counts N-1. The test
fails when a filter drops a line without counting it, and when the counts claim more lines than
vanished (give or take the lines found only inside a longer kept line: a bare test name).
A failed run is held to the same account: the lines cut inside a failure block (library
frames, source context, a diff's unchanged lines) are counted like any other.

`EXEMPT` names the filters whose answer is a re-laid-out form of every raw line (a table
re-aligned, porcelain turned into words), where "vanished" has no meaning, and says why.
"""
import os
import re
from collections import Counter

import pytest

from cc_filter import cases

from cc_filter.choose import catalogue
from cc_filter.kit.lines import strip_ansi

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "tests", "fixtures")

# Each table keeps one section per ecosystem folder of cc_filter/filters/ (one entry a line).

# git: the status that git status, git commit and git stash print (git_status.StatusCompactor)
_GIT_STATUS_RESTATED = (
    r"Your branch (?:is|and) ", r"and have \d+ and \d+ different commits each",
    r'\((?:fix conflicts|all conflicts fixed|use "git (?:merge|rebase|cherry-pick|revert|am|'
    r'bisect|commit)\b(?! --edit-todo))', r"nothing to commit \(",
    r"(?:Changes to be committed|Changes not staged for commit|Untracked files|Unmerged paths|"
    r"Ignored files):$")  # `staged:`, `unstaged:`, `untracked:`, `unmerged:`, `ignored:`
#: a file line `modified:   a.py` becomes `M a.py`: looked for as its path (conflicts keep
#: git's words: `both modified: a.py`)
_GIT_STATUS_RESHAPED = ((r"^(?:modified|new file|deleted|renamed|copied|typechange): ", ""),)

# git: a patch as git diff, git show, git log -p and git stash show -p print it (DiffCompactor):
# each `@@` header becomes the exact `@@ -a,b +c,d @@` of each change; `new file mode 100644`,
# `old/new mode`, `similarity index`, `rename from/to`, `Binary files … differ` become the
# file's `diff <path>` line (`diff a -> b (renamed 95%)`, `(new file)`, `(binary)`); a
# `diff --git a/x b/x` line is looked for as its path (in the answer, or in the raw output
# that the runner shows instead when it is smaller)
_GIT_DIFF_RESTATED = (
    r"@@@* -\d", r"(?:new|deleted) file mode 100644$", r"(?:old|new) mode \d+$",
    r"(?:dis)?similarity index \d+%$", r"(?:rename|copy) (?:from|to) ", r"Binary files .* differ$",
    r"GIT binary patch$")
_GIT_DIFF_RESHAPED = (
    (r"^diff --git a/(.+) b/\1$", r"\1"), (r"^diff --git a/(.+) b/(.+)$", r"\2"),
    (r"^diff --(?:cc|combined) ", ""),
    # a blank added or removed line (`+` alone) carries no text, like a blank line: it is
    # looked for as nothing (a side's cap, `... (38 added lines omitted)`, may count it)
    (r"^[-+]$", ""))
# git: the commits git log and git show print (git_log.LogCompactor): `commit <hash> (refs)`
# becomes the commit's line `<hash7> (refs) <day> <author>: <subject>`; `Merge: a b` its
# `(merge a b)`; the `N files changed, …` line its `[N files, +X -Y]`
_GIT_LOG_RESTATED = (r"Merge: ", r"\d+ files? changed, ")
_GIT_LOG_RESHAPED = ((r"^commit ([0-9a-f]{7})[0-9a-f]{33}", r"\1"),
                     # a --stat line without its `++--` bar: `src/app.py | 4`
                     (r"^(.* \| \d+) [+-]+$", r"\1"))
#: filter → regexes (matched at the start of a raw line) of the lines the filter states in
#: other words instead of dropping them
RESTATED: dict[str, tuple[str, ...]] = {
    # python
    "pip-install": (r"Found existing installation: ", r"Requirement already satisfied: (?!.* \(from )",
                    r"Successfully installed "),
    # black lists each `would reformat <path>`/`reformatted <path>` under its directory
    "black": (r"would reformat ", r"reformatted "),
    # pytest keeps the closing `=== 31 passed in 0.05s ===` as `31 passed in 0.05s`
    "pytest": (r"=+ .*\bin [\d.]+s(?: \([\d:.]+\))? =+$", r"=+ no tests ran in "),
    # pip show -f lists every file (but the counted .pyc) under its directory
    # (`dateutil/parser/*.py: __init__ _parser isoparser`)
    "pip-show": (r"(?!\S*__pycache__/)[^\s:]+$",),
    # pyright's `/abs/path/file.py` header: each diagnostic under it names the file
    "pyright": (r"/\S+\.pyi?$",),
    # ruff format --check's `unformatted: File would be reformatted` header becomes the
    # file's `would reformat: path:line:col` line
    "ruff": (r"unformatted: File would be reformatted$",),
    # git
    # git status (and the status git commit / git stash print): the upstream lines become the
    # branch line's `ahead of 'origin/main' by 4 commits`; an operation's advice becomes its
    # `next: fix conflicts, then git commit (or git merge --abort)` line
    "git-status": _GIT_STATUS_RESTATED,
    "git-commit": _GIT_STATUS_RESTATED,
    "git-stash": _GIT_STATUS_RESTATED + _GIT_DIFF_RESTATED,
    "git-diff": _GIT_DIFF_RESTATED,
    "git-log": _GIT_LOG_RESTATED + _GIT_DIFF_RESTATED,
    "git-show": _GIT_LOG_RESTATED + _GIT_DIFF_RESTATED,
    # git pull: `Updating a..b` + `Fast-forward` become `Fast-forward a..b`
    "git-pull": (r"Updating [0-9a-f]+\.\.[0-9a-f]+$",),
    # files
    # ls -R: the first section's `.:` header is the header-less first line of the answer
    "ls": (r"\.:$",),
    # js
    # turbo says them once for all tasks: `no output files found for tasks a#build, b#build
    # (check the `outputs` key in turbo.json)`
    "turbo": (r"WARNING no output files found for task \S+\. Please check your `outputs` key "
              r"in `turbo\.json`$",),
    # said by vite's `✗ Build failed in 237ms` line and the errors it shows
    "vite": (r"error during build:$", r"Build failed with \d+ errors?:$"),
    # prettier's closing line becomes the heading of its list of files (the advice goes);
    # `Checking formatting...` is said by the check's result line
    "prettier": (r"Checking formatting\.\.\.$", r"\[warn\] Code style issues found in "
                 r"(?:\d+ files|the above file)\. Run Prettier with --write to fix\.$"),
    # the answer names the schema file (`The schema at <file> is valid`, `<file>:24: error: …`)
    "prisma": (r"Prisma schema loaded from ",),
    # the `Test Suites:` total says every suite ran
    "jest": (r"Ran all test suites\.$",),
    "npm-test": (r"Ran all test suites\.$",),  # its runners' (jest's, vitest's, mocha's)
    # rust, go, jvm, c
    "bloop": (r"Compiled \S+ \(\d+ms\)$",),  # the projects, in one `compiled: foo, bar` line
    # passing suites' `test result: ok. …` lines, folded into one line per count (`(×20
    # suites)`), less their timing (an empty suite's result is dropped and counted)
    "cargo-test": (r"test result: ok\. (?!0 passed; 0 failed; 0 ignored;)",),
    # go test's bare `FAIL` (after a failing package, at the end) says what `FAIL pkg` says
    "go-test": (r"FAIL$",),
    # said again by what follows: `BUILD FAILED`, a header, the compiler's own errors
    "gradle": (r"FAILURE: Build failed with an exception\.$", r"\* What went wrong:$",
               r"> Compilation failed; see the compiler error output"),
    # ruby, php, lint
    # shellcheck states each finding on one finding line: the `In deploy.sh line 7:` header
    # and the caret's column become its `deploy.sh:7:18`, its severity, message and code
    # follow; a message found at several places is said once, with all its places
    # (`info: Double quote … (SC2086): deploy.sh:7:18 8:7, backup.sh:5:10`)
    "shellcheck": (r"In \S+ line \d+:$", r"\^-*\^? SC\d+ \((?:error|warning|info|style)\): "),
    # rspec's rerun list (`rspec ./spec/a_spec.rb:12 # Cart adds items`, one a line) becomes one
    # runnable line, `rspec ./spec/a_spec.rb:12:22 ./spec/a_spec.rb[1:6:1,1:6:2]` (each
    # description is its failure's header above)
    "rspec": (r"rspec \S+ # ",),
    # phpunit's `FAILURES!` / `ERRORS!`: said by the `Tests: 9, …, Failures: 7.` line
    "phpunit": (r"(?:FAILURES|ERRORS)!$",),
    # system, infra
    # docker build's closing `ERROR: failed to solve: process "/bin/sh -c CMD" did not complete
    # successfully: exit code: 1` becomes `ERROR: failed to solve: #8 [4/5] exit code: 1` when
    # CMD is the RUN command of the step header `#8 [4/5] RUN CMD` shown above
    "docker": (r'ERROR: failed to solve: process "/bin/sh -c ',),
    # env masks secret values (`GITHUB_TOKEN=****`, `postgres://shop:****@db/…`, every line of
    # a PEM key) and shortens colour tables (`LS_COLORS=<1753 chars>`): one output line per
    # raw line, in order. What it withholds is withheld on purpose (redacts: no tee copy of the
    # secrets); `printenv LS_COLORS` prints a colour table whole, `CTXCRL_DISABLED=1` the rest
    "env": (r"(?i:(?!(?:XDG_SESSION_\w*|KEYTIMEOUT|SSH_AUTH_SOCK|GPG_AGENT_INFO|PASSWORD_STORE_DIR"
            r"|KEYMAP|XKB_KEYMAP)=)(?=[a-z_])\w*?(?:KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|PRIVATE"
            r"|SESSION|COOKIE|SIGNING|SIGNATURE|CERT|DSN|SALT|API|WEBHOOK|BEARER|OTP|PIN)\w*=)",
            r"(?:\w+=)?[a-z][\w+.-]*://[^/@\s:]+:[^@/\s]*@",
            r"(?:\w+=)?['\"]?(?:gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|rk_live_|pk_live_|xox[bpars]-"
            r"|AKIA|ASIA|AIza|glpat-|npm_|pypi-|whsec_|eyJ|hf_|dop_v1_|shpat_|SG\.|ya29\.|AccountKey=)",
            r"(?:\w+=)?(?=[\w+=.-]*[a-z])(?=[\w+=.-]*[A-Z])(?=[\w+=.-]*\d)[\w+=.-]{24,}$",
            r"(?:\w+=)?-----(?:BEGIN|END) ", r"[A-Za-z0-9+/]{16,}={0,2}$",
            r"(?:LS_COLORS|LSCOLORS|ZLS_COLORS|GREP_COLORS|EXA_COLORS|EZA_COLORS|JQ_COLORS"
            r"|GCC_COLORS)="),
}
#: filter → (regex, replacement) applied to each raw line before it is looked for: the part
#: of a line that the filter moves elsewhere (grep's path, shown once as the file's header)
RESHAPED: dict[str, tuple[tuple[str, str], ...]] = {
    # python
    # pip's `(from versions: a, b, c, …)` keeps its oldest 3 and newest 6 around a count; a
    # `Created wheel for x: filename=… size=… sha256=…` line loses its size and hash
    "pip-install": ((r"^(.*\(from versions: [^,]+, [^,]+, [^,]+), .*$", r"\1"),
                    (r"^(Created wheel for .*?) size=.*$", r"\1")),
    # files
    # grep groups `path:12:text` under a `path:` header as `  12: text` (`path:text`: `  text`)
    # (a single file's `N:text`, whose text may hold `13:55:31`, is shown as printed)
    "grep": ((r"^(?!\d+:).+?:(\d+):\s*(?=\S)", r"\1: "), (r"^(?!\d+:).+?:(\d+):$", r"\1:"),
             (r"^(?!\d+:)[^:]+:\s*", "")),
    # diff drops, by design (its docstring says so), the modification time of a `---`/`+++`
    # (unified) or `***`/`---` (context) file header line: the line is looked for as its path
    "diff": ((r"^((?:---|\+\+\+|\*\*\*) .+?) (?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? [+-]\d{4}"
              r"|\w{3} \w{3} \d+ \d\d:\d\d:\d\d \d{4})$", r"\1"),),
    # find (over 12 paths) and tree list each directory's names on its `dir/:` line, three or
    # more with one extension as `{a,b,c}.py`: a path is looked for as its name's stem (its
    # directory is that line's head, its extension the brace group's)
    "find": ((r"^(?!find: ).*/(?=[^/])", ""), (r"^([^/ ]*?[^/. ])\.[\w+-]+$", r"\1")),
    "tree": ((r"^[│|`\s]*(?:├── |└── |\|-- |`-- )", ""), (r"^([^/ ]*?[^/. ])\.[\w+-]+$", r"\1")),
    # ls -l keeps an entry's name, kind, size and any unusual mode/owner, and drops by design
    # (its docstring says so) the link count, usual owner, date and mode columns of every entry
    # line: the line is looked for as its name (`.` and `..` are dropped, and counted); -R
    # sections become `dir/:` lines (`./src:` → `src/:`), names as for find
    "ls": ((r"^[-dlbcps][-rwxsStT]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+(?:\d+,\s*)?\S+\s+\w{3}\s+\d+\s+"
            r"\S+\s+(?!\.\.?$)", ""), (r"^(?:\./)?(?!\.:$)(.+?)/?:$", r"\1/:"),
           (r"^([^/ ]*?[^/. ])\.[\w+-]+$", r"\1")),
    # git
    # git status re-lays out its file lines (and git commit / git stash theirs)
    "git-status": _GIT_STATUS_RESHAPED,
    # git commit: `create mode 100644 a.py` → `create a.py` (another mode is kept)
    "git-commit": ((r"^(create|delete) mode 100644 ", r"\1 "),
                   (r"^(create|delete) mode (\d{6}) (.+)$", r"\1 \3 (mode \2)"))
                  + _GIT_STATUS_RESHAPED,
    "git-stash": _GIT_STATUS_RESHAPED + _GIT_DIFF_RESHAPED,
    "git-diff": _GIT_DIFF_RESHAPED,
    "git-log": _GIT_LOG_RESHAPED + _GIT_DIFF_RESHAPED,
    "git-show": _GIT_LOG_RESHAPED + _GIT_DIFF_RESHAPED,
    # git branch -a lists a remote's branches on one line, `remotes/origin: hotfix, main`: a
    # `remotes/origin/main` line is looked for as its branch's name
    "git-branch": ((r"^remotes/[^/]+/(\S+)$", r"\1"),),
    # git pull joins a `hint:` paragraph into one `hint:` line
    "git-pull": ((r"^hint: ?", ""),),
    # git push too (the hint lines it drops, with the `See 'git push --help'` sentence, counted)
    "git-push": ((r"^hint: ?", ""),),
    # gh run view --log drops, by design (gh.toml says so), the `job<TAB>step<TAB>timestamp `
    # prefix of every log line: the steps are named by the `##[group]` lines it keeps, the
    # timestamps are timing; the line is looked for as its text (what the strip rules drop,
    # they count)
    "gh": ((r"^(?:\S[^\t]*? )?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?", ""),),
    # js
    # eslint joins each file header (`/abs/dir/src/a.js`, shown relative) onto its findings
    # as `src/a.js:2:10 …`; a finding keeps `line:col` and its severity (under an `errors:` /
    # `warnings:` heading when both come, else errors unlabelled, `warning: `), its message and rule as `msg (rule)`, or `(rule, as above)` when the same
    # message and rule were shown before
    "eslint": ((r"^/\S*/(?=[^/\s]+$)", ""), (r"^(\d+:\d+) (?:warning|error) .*$", r":\1 ")),
    # jest joins a failure's `> 6 | code` line and its first project frame `at … (path:6:26)`
    # into `path:6:26: code`
    "jest": ((r"^> \d+ \| ", ""), (r"^at .*\((\S+:\d+:\d+)\)$", r"\1"), (r"^at (\S+:\d+:\d+)$", r"\1")),
    # npm test: the reshapes of the runner filters it hands lines to (jest, vitest, mocha)
    "npm-test": ((r"^> \d+ \| ", ""), (r"^at Context\.<anonymous> \((.+)\)$", r"at \1"),
                 (r"^at .*\((\S+:\d+:\d+)\)$", r"\1"), (r"^at (\S+:\d+:\d+)$", r"\1"),
                 (r"^❯ (?=(?:\S+ )?\S+:\d+:\d+$)", ""), (r"^\d+\| ", ""),
                 (r" // Object\.is equality$", ""),
                 # a pretest's eslint: as for eslint
                 (r"^/\S*/(?=[^/\s]+\.[cm]?[jt]sx?$)", ""), (r"^(\d+:\d+) (?:warning|error) .*$", r":\1 ")),
    # prettier lists each `[warn] path` (--check) and `path 12ms` (--write) as `  path` under
    # one heading (the timing goes)
    "prettier": ((r"^\[warn\] ", ""), (r"^(.+) \d+(?:\.\d+)?m?s$", r"\1")),
    # prisma puts an error's `  -->  file:24` line in front of its message: `file:24: error: …`;
    # a message like an earlier one but for its quoted names keeps them and says the rest `(as
    # above)` (`error: Type "Tag" (as above)`): a message is looked for up to its last quoted name
    "prisma": ((r"^--> (\S+)$", r"\1: "), (r'^((?:error|warning): .*")[^"]*$', r"\1")),
    # npm outdated drops the `Location` column when it is `node_modules/<name>` on every row, and
    # says a `Depended by` value shared by every row once, `(all depended on by shop)`: a row is
    # looked for as `name current wanted latest`, the header as its first four columns
    "npm-outdated": ((r"^(Package Current Wanted Latest) Location Depended by$", r"\1"),
                     (r"^(\S+) (\S+ \S+ \S+) node_modules/\1 \S+$", r"\1 \2")),
    # ng build (its replace rules) drops esbuild's `[plugin angular-compiler]` suffix and the
    # bundle line's timing, shows `✘ [ERROR] ` as `ERROR ` and a location without its colon
    "ng-build": ((r"^(.*\S) \[plugin [\w-]+\]$", r"\1"), (r"^✘ \[ERROR\] ", "ERROR "),
                 (r"^(Application bundle generation \w+)\. \[[0-9.]+ seconds\] - \S+$", r"\1."),
                 (r"^(\S+:\d+:\d+):$", r"\1")),
    # npm ls redraws the tree with one space per level (leaves of one parent share a line)
    "npm-ls": ((r"^[│├└─┬ ]+", ""),),
    # npm install drops the timing of `added 104 packages in 12s`, and shows an error's lines
    # under one `npm error` (its first line keeps the prefix; `For a full report see:` joined
    # with the path on the next line)
    "npm-install": ((r" in [\d.]+m?s$", ""), (r"^npm (?:error|ERR!) ?", "")),
    # mocha names the test body's frame by its place only
    "mocha": ((r"^at Context\.<anonymous> \((.+)\)$", r"at \1"),),
    # playwright cuts the `────` ruler off a failure's title
    "playwright": ((r"\s*─+$", ""),),
    # vitest joins a failure's `❯ path:6:56` and its `6| code` line into `path:6:56: code`,
    # and drops chai's ` // Object.is equality` note from the error line
    "vitest": ((r"^❯ (?=(?:\S+ )?\S+:\d+:\d+$)", ""), (r"^\d+\| ", ""),
               (r" // Object\.is equality$", ""),
               # a path under the project folder the RUN banner names is shown relative to it:
               # an absolute path is looked for from its first test/src folder
               (r"(?<=['\s])/[^\s']*?/(?=(?:test|tests|src|lib|spec|__tests__)/)", "")),
    # tsc --pretty (TypeScript 7) prints a related location as `src/b.ts:3:3 - The expected type
    # comes from …`: shown as `src/b.ts:3:3: The expected type comes from …`
    "tsc": ((r"^(\S+:\d+:\d+) - (?!(?:error|warning|message|suggestion) TS\d+: )", r"\1: "),),
    # python
    # mypy keeps every error on its own line with its `path:line: error: `, a message shown
    # before under the same code as `(code, as above)` (a message differing only in its quoted
    # name as `"name" (code, as above)`): an error line is looked for as its place
    "mypy": ((r"^([^:]+:\d+(?::\d+)*: (?:error|warning): ).+$", r"\1"),),
    # pyright shows a diagnostic's absolute path relative to the project root (the part before
    # the relative path argument, `pyright inventory`, else the working directory): the line
    # is looked for from its file's name on
    "pyright": ((r"^/\S*/(?=[^/\s]+:\d+:\d+ - (?:error|warning|information): )", ""),),
    # ruff joins a diagnostic's ` --> path:line:col` line onto its header line
    # (`path:line:col: F401 …`, `would reformat: path:line:col`)
    "ruff": ((r"^--> ", ""),),
    # pytest shows a failure section under its short-summary line (`FAILED path::Class::test`,
    # `ERROR path`): the section's `___ Class.test ___` title is looked for as `::Class::test`
    # (`ERROR collecting path` as its path), the summary line without its ` - message` (the
    # section has it whole); a frame becomes `path:N: code`: its `>` line is looked for as its
    # code, its location line `path:N: ExcName` (--tb=short: `path:N: in func`, --tb=line:
    # `path:N: message`) as `path:N` (the exception and message are its `E` lines); a `---
    # Captured stdout call ---` banner becomes `Captured stdout call:`, a `!!! Interrupted: …
    # !!!` banner its text; paths under the rootdir are shown relative to it: a warning's
    # `/abs/dir/t.py:44: …` and an absolute path in quotes are looked for from the file's name
    # on; -rA's `PASSED path::test` lines are listed by name under their file (`  path: test_a
    # test_b`); a -v `path::test SKIPPED (why) [ 5%]` line becomes `SKIPPED path::test (why)`,
    # a -v `path::test FAILED [ 33%]` line is the test's `FAILED path::test` header (looked for
    # as its id)
    "pytest": ((r"^_+ ERROR collecting (\S+) _+$", r"\1"),
               (r"^_+ (?:ERROR at (?:setup|teardown) of )?([A-Z]\w*)\.(.+?) _+$",
                r"::\1::\2"),
               # (one `_` each side: a test id longer than the line; pytest-cov's `___ coverage:
               # platform … ___` banner is no test: shown as it is)
               (r"^_+ (?:ERROR at (?:setup|teardown) of )?(?!_|coverage: platform )(.+?) _+$",
                r"::\1"),
               (r"^((?:FAILED|ERROR) \S+) - .*$", r"\1"),
               (r"^> ", ""),
               (r"^(?:/\S*/)?(\S+?:\d+): (?:assert\b.*|in \S+|[\w.]+|(?![\w.]*Warning: )[\w.]+: .*)$",
                r"\1"),
               (r"^-{3,} (Captured .*?) -{3,}$", r"\1:"),
               (r"^!{3,} (.*?) !{3,}$", r"\1"),
               (r"^/\S*/(?=[^/\s]+:\d+: [\w.]*Warning: )", ""),
               (r"^(?:E File \"|ImportError while importing test module ')/\S*/(?=[^/\s]+[\"'])",
                ""),
               (r"^PASSED [^\s:]+::(\S+)$", r"\1"),
               (r"^(\S+) (SKIPPED|XFAIL|XPASS)( \(.*\))? \[ *\d+%\]$", r"\2 \1\3"),
               (r"^(\S+::\S+) (?:FAILED|ERROR) \[ *\d+%\]$", r"\1")),
    # unittest shows `FAIL: test_x (mod.Class.test_x)` as `FAIL: mod.Class.test_x` (the id to
    # rerun), a frame's `File "/root/pkg/t.py", line 19, in test_x` as `pkg/t.py:19` (an ERROR
    # frame's joined with its code line): looked for from the file's name on
    "unittest": ((r"^((?:FAIL|ERROR|UNEXPECTED SUCCESS): )\S+ \((\S+)\)$", r"\1\2"),
                 (r"^File \"(?:[^\"]*/)?([^/\"]+)\", line (\d+), in \S+$", r"\1:\2")),
    # rust, go, jvm, c
    # cargo fmt --check names each hunk by its `path:line` (`path:1: -3 +13 lines`): its
    # `Diff in path:1:` / `Diff in path at line 1:` header is looked for as `path:1:`
    "cargo-fmt": ((r"^Diff in (.+?)(?::| at line )(\d+):$", r"\1:\2:"),),
    # cargo test names a failed test by its section (`---- tests::x stdout ----`, or `---- tests::x
    # panicked at src/lib.rs:10:9:` when the panic opens it): a `test tests::x ... FAILED` /
    # `tests::x --- FAILED` line is looked for as the name, the section header as `---- tests::x`,
    # the panic line as its `panicked at src/lib.rs:10:9:` (the thread is the test the section
    # names, its id dropped); a backtrace frame (`5: crate::tests::x` + `at ./src/lib.rs:9:5`)
    # becomes one line, `at ledger-money/src/lib.rs:9:5 (crate::tests::x)`: its function is
    # looked for in parentheses, its place as the end of the path relative to the run
    "cargo-test": ((r"^test (\S+)(?: - should panic)? \.\.\. FAILED$", r"\1"),
                   (r"^(\S+) --- FAILED$", r"\1"), (r"^(---- \S+) (?:stdout|stderr) ----$", r"\1"),
                   (r"^thread '[^']+'(?: \(\d+\))? (?=panicked at )", ""),
                   (r"^\d+: (\S.*)$", r"(\1)"), (r"^at \./(\S+)$", r"\1")),
    # ctest re-lays out a failed test's `1/5 Test #1: mean ....***Failed 0.02 sec` as
    # `Failed: #1 mean` (the timing goes)
    "ctest": ((r"^\d+/\d+ Test #(\d+): (\S+) \.+ ?\*\*\*([A-Za-z][A-Za-z ()-]*[A-Za-z)]) "
               r"[0-9.]+ sec$", r"\3: #\1 \2"),),
    # dotnet build shows a message an earlier diagnostic gave as `path(62,34): error CS1061: (same
    # message as (50,34))`: a diagnostic is looked for as its `path(62,34): error CS1061: ` (the
    # message there or, said once, at the position named)
    "dotnet-build": ((r"^(.+?\(\d+(?:,\d+)*\)) ?: (error|warning) (\w+): .*$", r"\1: \2 \3: "),),
    # golangci-lint shows a finding `path:12:3: msg (linter)` as `path:12:3 msg (linter)`, or as
    # `path:12:3 (linter, as above)` when an earlier finding gave the message and linter: its
    # line is looked for as its position
    "golangci-lint": ((r"^([^\s:][^:]*:\d+(?::\d+)?): .*\([a-z0-9][a-z0-9_-]*\)$", r"\1 "),),
    # go test -json: an `output` event is looked for as its Output text (the answer is text, as
    # for the plain run; its `\t` and `\"` escapes read as printed); go test's `=== RUN TestX`:
    # the test's name, restated by its `--- FAIL: TestX` line; a panic's project frame, two
    # lines, becomes `  pkg.TestX (pkg/x_test.go:9)`: the function line is looked for as the
    # function, the location line as `x_test.go:9` (a part of the path relative to the run)
    "go-test": ((r'\\t(?=.*"\}$)', " "), (r'\\"(?=.*"\}$)', '"'),
                (r'^\{"Time":"[^"]*","Action":"output",.*?"Output":"\s*(.*?)(?:\\n)?"\}$', r"\1"),
                (r"^=== RUN\s+(\S+)$", r"\1"),
                (r"^((?:[\w.-]+/)*[\w-]+\.\S*?)\([^()]*\)$", r"\1"),
                (r"^/\S*/([^/\s]+\.go:\d+)(?: \+0x[0-9a-f]+)?$", r"\1")),
    # old Gradle glues a compiler error to its task line (`:compileJava/src/…: error: …`):
    # the error is shown, the task named by the `Execution failed for task` line
    "gradle": ((r"^(?:> Task )?:[\w:.-]+(?=/)", ""),),
    # Maven's `[INFO] x` is shown as `x`, `[ERROR] x` as `ERROR: x`
    "mvn": ((r"^\[INFO\] ?", ""), (r"^\[(ERROR|WARNING|WARN)\] ?", r"\1: ")),
    # ruby, php, lint
    # yamllint puts each finding on a line with its file (`k8s/a.yaml:5:22 msg (rule)`), a
    # message found at several places once with all its places (`warning: msg (rule):
    # a.yaml:1:1, b.yaml:1:1 9:3`): a finding line is looked for as its `line:col`; a file
    # header as its name (a directory all files share is named once, `in manifests/`)
    "yamllint": ((r"^(\d+:\d+) (?:error|warning) .*$", r"\1"), (r"^\S*/(?=[^/\s]+$)", "")),
    # rspec drops the `:in 'block (2 levels) in <top (required)>'` of a spec's frame
    "rspec": ((r"^(# \S+:\d+):in `block \(\d+ levels?\) in .*$", r"\1"),),
    # phpunit names the test class once for a run of its failures (`MoneyTest::`, then `1)
    # testSplit: …`), the folder all locations share once (`in /srv/app/tests/`, then
    # `(MoneyTest.php:24)`), and pairs an array diff's entries, `0 => 34 → 35`
    "phpunit": ((r"^(\d+\)) [\w\\]+::", r"\1 "), (r"^/\S*/(?=[^/\s]+\.php:\d+$)", ""),
                (r"^- (\S+) => (.*)$", r"\1 => \2 →"), (r"^\+ \S+ => (.*)$", r"→ \1")),
    # rubocop shows an offense through the shared lint report, `path:12:5 message (Cop/Name)`,
    # or `path:12:5 (Cop/Name, as above)` when the message and cop were shown before; the
    # convention severity unlabelled, others named (`warning: `): an offense is looked for as its
    # place and severity label
    "rubocop": ((r"^(\S+:\d+:\d+): C: .*$", r"\1 "), (r"^(\S+:\d+:\d+): W: .*$", r"\1 warning: "),
                (r"^(\S+:\d+:\d+): E: .*$", r"\1 error: "), (r"^(\S+:\d+:\d+): F: .*$", r"\1 fatal: "),
                (r"^(\S+:\d+:\d+): R: .*$", r"\1 refactor: ")),
    # system, infra
    # wget rewrites its start, status, result and error lines, dropping only the clock time and
    # the speed (`--2026-… 13:00:14--  URL` → `GET URL`, `HTTP request sent, awaiting response...
    # 200 OK` → `HTTP 200 OK`, `2026-… (81 MB/s) - ‘f’ saved [N/N]` → `‘f’ saved [N/N]`,
    # `2026-… 13:00:15 ERROR 404: …` → `ERROR 404: …`)
    "wget": ((r"^--\d{4}-\d\d-\d\d \d\d:\d\d:\d\d-- ", "GET "),
             (r"^HTTP request sent, awaiting response\.\.\. ", "HTTP "),
             (r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \([0-9.]+ [KMG]?B/s\) - ", ""),
             (r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?=ERROR )", "")),
    # systemctl status drops the host name of its journal lines: the machine it ran on (or the
    # `-H` host the agent named), the same on every line. A journal line is looked for as what
    # follows the host (`nginx[812]: …`; the time stamp before it is kept, but not looked for),
    # so it is found both in the answer and in the raw output the runner shows instead when the
    # answer is no smaller (status-failed)
    "systemctl": ((r"^\w{3} \d\d \d\d:\d\d:\d\d \S+ ", ""),),
    # docker build drops, by design (its docstring says so), the per-line timestamp of a build
    # step's output (`#8 1.021 ERROR: …` → `#8 ERROR: …`)
    "docker": ((r"^(#\d+) \d+\.\d+ ", r"\1 "),),
    # df keeps every value of every row; only its header's two-word `Mounted on` becomes one
    # column name, `Mounted-on`
    "df": ((r"^(Filesystem .*) Mounted on$", r"\1 Mounted-on"),),
    # terraform shows `# addr will be created` without its `#`, a changed attribute under its
    # dotted path (`~ image = a -> b` inside `~ input = {` → `~ input.image = a -> b`: the
    # symbol goes first here so the rest is found), and the text of an error box without the
    # box drawing
    "terraform": ((r"^# (?=\S+ (?:will|must|has) )", ""),
                  (r"^(?:[~+-]|-/\+|\+/-) (?=.* -> )", ""), (r"^[╷│╵] ?", "")),
    # js
    # tap and node --test show a diagnostic's path relative to where the command ran
    # (`at: Test.<anonymous> (test/a.js:7:7)`, `location: 'node-test/a.test.js:14:13'`): a
    # line with an absolute path is looked for from its file's name on
    "tap": ((r"^.*/(?=[^/\s]+:\d+:\d+\)?'?,?$)", ""),),
    "node-test": ((r"^.*/(?=[^/\s]+:\d+:\d+\)?'?,?$)", ""),),
}
#: filter → why its answer has no line-for-line relation to the raw output
EXEMPT = {
    "generic": "the fallback: its own tests count every cut (tests/cc_filter/test_fallback.py)",
}
_MARKERS = (
    re.compile(r"^\s*\.\.\. \((\d+) [^()]+ (?:omitted|truncated)\)$"),   # lines.omitted / truncated
    re.compile(r"^\s*\+(\d+) [\w() -]+$"),                                 # lines.cap: `+N more`
    re.compile(r"^\.\.\. lines (\d+)–(\d+) omitted \("),                   # read: a range of lines
)
_REPEAT = re.compile(r" \(×(\d+)\)$")
CASES = [c for c in cases.discover(FIXTURES) if c.filter_name not in EXEMPT]


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    catalogue.reset()


def _words(line: str) -> str:
    """A line as compared: ANSI and redraws resolved, runs of white space made one space."""
    line = line.rstrip("\r")  # a CRLF line's `\r` is no redraw
    return " ".join(strip_ansi(line.split("\r")[-1] if "\r" in line else line).split())


def counted_by_markers(output: str) -> int:
    total = 0
    for line in output.splitlines():
        repeat = _REPEAT.search(line)
        if repeat:
            total += int(repeat.group(1)) - 1  # lines.collapse_repeats: the line, N times
            continue
        for marker in _MARKERS:
            m = marker.match(line)
            if m:
                numbers = [int(g) for g in m.groups()]
                total += numbers[0] if len(numbers) == 1 else numbers[1] - numbers[0] + 1
                break
    return total


def vanished_lines(case, output: str) -> tuple[list[str], int]:
    """The raw lines of `case` that reach `output` neither as text nor restated, and how many
    others reached it only inside a longer line (a bare test name that is also part of a
    kept line may have been dropped and counted: the counts may include those)."""
    with open(case.out_path, "rb") as f:
        raw = f.read().decode("utf-8", "replace")
    name = case.filter_name
    restated = re.compile("|".join(f"(?:{p})" for p in RESTATED.get(name, ())) or r"(?!)")
    reshape = [(re.compile(p), r) for p, r in RESHAPED.get(name, ())]
    shown_lines = [_words(line) for line in output.splitlines()]
    shown, whole = "\n".join(shown_lines), Counter(shown_lines)
    used: dict[str, int] = {}
    gone, loose = [], 0
    for line in raw.split("\n"):
        text = _words(line)
        if not text or restated.match(text):
            continue
        for rx, replacement in reshape:
            text = rx.sub(replacement, text)
        # a line printed k times reaches the answer at most as often as the answer shows it
        # (a repeat the filter counts, `line (×3)`, is counted by its marker)
        seen = used[text] = used.get(text, 0) + 1
        if seen > 1 and shown.count(text) < seen:
            gone.append(text)
        elif seen == 1 and text not in shown:
            gone.append(text)
        elif whole[text] < seen:  # found only inside a longer line (```` ``` ````)
            loose += 1
    return gone, loose


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_dropped_lines_are_counted(case, tmp_path):
    result = cases.run_fixture_case(case, tee_dir=str(tmp_path / "tee"))
    assert not result.failures, "\n".join(result.failures)
    counted = counted_by_markers(result.output)
    vanished, loose = vanished_lines(case, result.output)
    assert len(vanished) <= counted <= len(vanished) + loose, (
        f"{case.id}: {len(vanished)} raw lines vanished, markers count {counted}; "
        f"first vanished: {vanished[:3]}")
    if vanished:
        assert "[full output: " in result.output, f"{case.id}: dropped lines but no tee hint"
