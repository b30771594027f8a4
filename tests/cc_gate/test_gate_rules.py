"""The rule pattern language: which settings entries are shell rules, and what they match."""
import pytest
from cc_gate.agents import cursor, gemini
from cc_gate.agents.claude import SHELL_TOOLS
from cc_gate.rules import CONFIG_SHELL_TOOLS, pattern_matches, shell_pattern

# (entry, tools, bare_ok, expected pattern or None)
ENTRIES = [
    ("Bash(git status)", SHELL_TOOLS, False, "git status"),
    ("Bash(git push --force:*)", SHELL_TOOLS, False, "git push --force:*"),
    ("Bash", SHELL_TOOLS, False, "*"),
    ("Bash()", SHELL_TOOLS, False, "*"),
    ("Bash(*)", SHELL_TOOLS, False, "*"),
    ("  Bash( npm test )  ", SHELL_TOOLS, False, "npm test"),
    ("Read(~/.ssh/**)", SHELL_TOOLS, False, None),
    ("WebFetch(domain:example.org)", SHELL_TOOLS, False, None),
    ("Bash(unclosed", SHELL_TOOLS, False, None),
    ("Shell(ls)", SHELL_TOOLS, False, None),
    ("Shell(ls)", cursor.SHELL_TOOLS, False, "ls"),
    ("run_shell_command(git status)", gemini.SHELL_TOOLS, False, "git status"),
    ("run_shell_command", gemini.SHELL_TOOLS, False, "*"),
    ("ShellTool(rm -rf)", gemini.SHELL_TOOLS, False, "rm -rf"),
    ("git push:*", CONFIG_SHELL_TOOLS, True, "git push:*"),
    ("git push:*", SHELL_TOOLS, False, None),
    ("Read(./secret)", CONFIG_SHELL_TOOLS, True, None),
    ("Bash(ls)", CONFIG_SHELL_TOOLS, True, "ls"),
    ("", CONFIG_SHELL_TOOLS, True, None),
    (42, CONFIG_SHELL_TOOLS, True, None),
    (None, SHELL_TOOLS, False, None),
]


@pytest.mark.parametrize("entry, tools, bare_ok, expected", ENTRIES)
def test_shell_pattern(entry, tools, bare_ok, expected):
    assert shell_pattern(entry, tools, bare_ok) == expected


# (pattern, command, matches?)
MATCHES = [
    ("*", "anything at all", True),
    ("*", "", True),
    # prefix:*  — word boundary
    ("git push:*", "git push", True),
    ("git push:*", "git push origin main", True),
    ("git push:*", "git pushy", False),
    ("git push:*", "git pus", False),
    ("git push:*", "git  push", False),
    ("git push --force:*", "git push --force origin", True),
    ("git push --force:*", "git push --force-with-lease", False),
    ("npm run test:*", "npm run test", True),
    ("npm run test:*", "npm run test:unit", False),
    # prefix *  — same as :*
    ("ls *", "ls", True),
    ("ls *", "ls -la", True),
    ("ls *", "lsof", False),
    ("git diff *", "git diff HEAD~1", True),
    # no space before * — plain glob
    ("ls*", "lsof -i", True),
    ("ls*", "ls", True),
    # exact, and exact with more arguments after a space
    ("git status", "git status", True),
    ("git status", "git status --short", True),
    ("git status", "git statuses", False),
    ("git status", "git", False),
    ("npm test", "npm testing", False),
    ("cargo test", "cargo\ttest", False),
    ("cargo", "cargo\ttest", True),
    # globs with * in the middle
    ("git * --force *", "git push --force origin", True),
    ("git * --force *", "git push --force", True),
    ("git * --force *", "git push origin --force", True),
    ("git * --force *", "git push --force-with-lease", False),
    ("git * main", "git checkout main", True),
    ("git * main", "git checkout maintenance", False),
    ("* --version", "python --version", True),
    ("* --version", "python --version-info", False),
    ("rm -rf *", "rm -rf /", True),
    ("rm -rf *", "rm -rf", True),
    ("rm * /", "rm -rf /", True),
    ("docker * --privileged *", "docker run --privileged alpine", True),
    ("a*b*c", "aXbYc", True),
    ("a*b*c", "aXcYb", False),
    ("a*a", "a", False),
    ("a*a", "aa", True),
]


@pytest.mark.parametrize("pattern, command, expected", MATCHES)
def test_pattern_matches(pattern, command, expected):
    assert pattern_matches(pattern, command) is expected
