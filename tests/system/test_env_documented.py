"""Every environment variable the tools read is documented, with who may set it, in
SECURITY.md and in docs/ARCHITECTURE.md §2 (issue 23 item 3)."""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("ctxcrl/ctxcrl", "cc-lex/cc_lex", "cc-peel/cc_peel", "cc-gate/cc_gate",
            "cc-filter/cc_filter", "cc-rewrite/cc_rewrite", "cc-track/cc_track",
            "cc-hook/cc_hook")
READS = re.compile(r"""(?:environ(?:\.get)?\(|environ\[|getenv\(|_environ\(|env\[|env\.get\()"""
                   r"""\s*b?["']([A-Z][A-Z0-9_]{2,})["']|["']([A-Z][A-Z0-9_]{2,})["']\s+(?:not\s+)?in\s+os\.environ""")
#: Read through a name held elsewhere (a tuple, a constant): found by hand.
INDIRECT = {"XDG_DATA_HOME", "XDG_CONFIG_HOME", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR",
            "CTXCRL_HOOK_SCRIPT", "KILO_CONFIG", "KILO_CONFIG_DIR", "KILO_CONFIG_CONTENT",
            "KILO_PERMISSION", "KILO_DISABLE_PROJECT_CONFIG"}


#: Names the regex finds that are no environment read: the gate looks them up among the
#: assignments written on the command line it judges (`GIT_CONFIG_KEY_0=… git x`).
#: And the keys of OpenCode's and Kilo's variable tables (`layout.env["PERMISSION"]`), whose
#: full names (OPENCODE_PERMISSION, KILO_PERMISSION, …) are in INDIRECT or found directly.
NOT_ENVIRONMENT = {"GIT_CONFIG_VALUE_", "CONFIG_CONTENT", "PERMISSION"}


def read_variables() -> set:
    found = set(INDIRECT)
    for package in PACKAGES:
        for folder, _dirs, files in os.walk(os.path.join(REPO, package)):
            for name in files:
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        for match in READS.finditer(f.read()):
                            found.add(match.group(1) or match.group(2))
    return found - NOT_ENVIRONMENT


def test_every_variable_read_is_documented_in_both_places():
    variables = read_variables()
    assert {"CTXCRL_HOME", "CTXCRL_FILTER_BIN", "CLAUDE_CONFIG_DIR"} <= variables
    for doc in ("SECURITY.md", os.path.join("docs", "ARCHITECTURE.md")):
        with open(os.path.join(REPO, doc), encoding="utf-8") as f:
            text = f.read()
        missing = sorted(v for v in variables if f"`{v}`" not in text)
        assert not missing, f"{doc} does not document {missing} (who may set each, and why)"


def test_the_ci_switch_is_gone():
    assert "CTXCRL_TRUST_PROJECT_FILTERS" not in read_variables()
