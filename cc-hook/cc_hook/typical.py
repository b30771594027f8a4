"""The standard list of 50 typical agent commands (read-only exploration, then builds, tests,
installs, lint and version control), used by `cc-hook init` / `verify` to say what reaches the
model compacted, and by `just bench`. One list: change it here only.

`BUILD_TEST` are the 15 test, build, install and lint commands among them: the outputs that
cost the most tokens.
"""
EXPLORE = [
    "git status", "git diff", "git log --oneline -n 20", "git log -n 5", "git show HEAD",
    "git diff --stat", "git branch -a", "git status && git diff", "git diff HEAD~1",
    "git blame README.md", "ls", "ls -la", "ls -la src", "cat README.md", "head -50 README.md",
    "tail -20 README.md", "grep -rn TODO .", "grep -n def src/app.py", "rg TODO", "rg -n import",
    "find . -name '*.py'", "find . -type f -name '*.md'", "tree -L 2", "wc -l README.md",
    "du -sh .", "ps aux", "docker ps", "pwd", "echo done",
]
BUILD_TEST = [
    "pytest -q", "python -m pytest -x", "npm test", "npm run build", "cargo test",
    "cargo build", "go test ./...", "make", "mypy .", "ruff check .", "tsc --noEmit",
    "eslint .", "pip install -r requirements.txt", "npm install", "npm run lint",
]
VCS_AND_MORE = [
    "git add -A", 'git commit -m "wip"', "git push", "git pull", "kubectl get pods",
    "cd src && ls",
]
TYPICAL = EXPLORE + BUILD_TEST + VCS_AND_MORE
assert len(TYPICAL) == 50 and len(BUILD_TEST) == 15 and len(set(TYPICAL)) == 50
