"""Cline CLI's permission model (measured on Cline CLI 3.0.65, npm `cline`).

Cline has no rule about which shell command may run. Its one switch is tool approval, for every
tool at once (`{"*": {"autoApprove": …}}`): `--auto-approve false` (or `toolAutoApprove:
false` in `~/.cline/data/settings/global-settings.json`) asks before every call — and a
headless run refuses it ("requires approval in a TTY session"); the default, `--yolo` and
`--auto-approve true` run every call unasked. In plan mode (`--plan`) Cline's own guard
refuses a command that could change files (an output redirect, …), whatever the approval.

Its plugins run before both (`beforeTool`) and after the call (`afterTool`, which may replace
the result the model receives, failures included), so Cline filters after execution: the
command is never changed and Cline judges exactly what the model asked for. This model then
has nothing of Cline's to read: `decide` answers "deny" where contextcrawler's own `[gate]`
rules deny a peeled spelling of a segment, and "ask" (no answer: Cline decides on the original
command) for everything else. It never answers allow. Imports only the gate's own modules.
"""
from .. import decision
from ..rules import RuleSet, config_rules

NAME = "cline"
#: Cline's shell tool (it has no rules naming it).
SHELL_TOOLS = ("run_commands",)


def load_rules(cwd: str) -> RuleSet:
    return config_rules()


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        "Cline decides (it has no command rules, and filters after execution: the command is "
        "not changed)"))
