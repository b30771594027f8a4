"""What the agent will do with the hook's answer, in words, for `cc-hook test`.

Read from the answer the hook actually gave, in each agent's own answer format (never from a
second guess of the rules), with what each client does with that answer (ARCHITECTURE §8, measured
on the real clients). Cold path.
"""
import json


FILTERED = "filtered"
"""Runs the rewritten command without asking."""
REWRITTEN_OWN_RULES = "rewritten"
"""Runs the rewritten command once the client's own rules (on the rewritten text) allow it."""
ASKS = "asks"
"""Asks the user, then runs the rewritten command."""
REFUSED = "refused"
CLIENT_DECIDES = "client"
"""No answer: the client's own flow, on the original command, output unfiltered."""
FILTERED_AFTER = "after"
"""Post-execution agents: the command runs unchanged, its output is filtered afterwards."""


class Outcome:
    """`words()` is a predicate for the agent's name: "Claude Code " + words()."""

    __slots__ = ("kind", "command", "reason")

    def __init__(self, kind: str, command: str | None = None, reason: str | None = None):
        self.kind = kind
        self.command = command
        self.reason = reason

    def words(self) -> str:
        if self.kind == FILTERED:
            return f"runs filtered, without asking: {self.command}"
        if self.kind == REWRITTEN_OWN_RULES:
            return ("runs filtered once its own rules allow the rewritten command (it may ask): "
                    f"{self.command}")
        if self.kind == ASKS:
            return f"asks you first, then runs filtered: {self.command}"
        if self.kind == REFUSED:
            return f"refused by {self.reason}"
        if self.kind == FILTERED_AFTER:
            return "runs unchanged; its output is filtered after it ran"
        return ("decides on the original command with its own rules (it may ask); "
                "output unfiltered")

    @property
    def runs(self) -> str | None:
        """The command the client runs (if it runs one), None when refused."""
        return None if self.kind == REFUSED else self.command


def _reason(text) -> str:
    text = text if isinstance(text, str) and text else "a deny rule"
    prefix = "contextcrawler: "
    return text[len(prefix):] if text.startswith(prefix) else text


def parse_answer(text: str):
    """The answer's JSON object, or None for no answer (empty, `{}`, not an object)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        answer = json.loads(text.splitlines()[-1])
    except ValueError:
        return None
    return answer if isinstance(answer, dict) and answer else None


def filters_after(texts, agent: str) -> bool:
    """Whether the installed files (their texts) register `agent`'s after-execution filter:
    its module's `AFTER_MARK`, how its installed file names that event (none: it has none)."""
    from .agents import trait

    mark = trait(agent, "AFTER_MARK")
    return bool(mark) and any(text and mark in text for text in texts)


def opencode_outcome(result: dict | None, original: str, after: bool) -> Outcome:
    """OpenCode's plugin: it refuses on a deny record, replaces the command with a rewrite
    (OpenCode's own permission.bash then judges the rewritten one), else leaves it. pi's
    extension refuses on its `{"block": true}` answer."""
    result = result if isinstance(result, dict) else {}
    if result.get("decision") == "deny" or result.get("block") is True:
        return Outcome(REFUSED, reason=_reason(result.get("reason")))
    rewritten = result.get("rewritten")
    if isinstance(rewritten, str) and rewritten.strip() and rewritten != original:
        return Outcome(REWRITTEN_OWN_RULES, rewritten)
    return Outcome(FILTERED_AFTER if after else CLIENT_DECIDES, original)


def outcome_of(agent: str, answer_text: str, original: str, after: bool = False) -> Outcome:
    """after: the install also filters the output after execution (`filters_after`)."""
    from .agents import load

    answer = parse_answer(answer_text)
    none = Outcome(FILTERED_AFTER if after else CLIENT_DECIDES, original)
    if answer is None:
        return none
    try:
        module = load(agent)
    except KeyError:
        module = None
    # the agent module's ANSWER_SHAPE: "cursor", "decision" (Gemini CLI's, Vibe's), else
    # Claude's (Claude Code, Codex, Copilot in VS Code) or Copilot CLI's flat one
    shape = getattr(module, "ANSWER_SHAPE", "claude")
    if shape == "cursor":
        permission = answer.get("permission")
        command = (answer.get("updated_input") or {}).get("command")
        if permission == "deny":
            return Outcome(REFUSED, reason=_reason(answer.get("agent_message")))
        if not isinstance(command, str):
            return none
        return Outcome(FILTERED if permission == "allow" else ASKS, command)
    if shape == "decision":
        decision = answer.get("decision")
        if decision in ("deny", "block"):
            return Outcome(REFUSED, reason=_reason(answer.get("reason")))
        command = ((answer.get("hookSpecificOutput") or {}).get("tool_input") or {}).get("command")
        if decision == "ask":
            return Outcome(ASKS, command if isinstance(command, str) else original)
        if not isinstance(command, str):
            return none
        return Outcome(FILTERED if decision == "allow" else REWRITTEN_OWN_RULES, command)
    output = answer.get("hookSpecificOutput") if "hookSpecificOutput" in answer else answer
    if not isinstance(output, dict):
        return none
    decision = output.get("permissionDecision")
    if decision == "deny":
        return Outcome(REFUSED, reason=_reason(output.get("permissionDecisionReason")))
    updated = output.get("updatedInput") or output.get("modifiedArgs") or {}
    command = updated.get("command") if isinstance(updated, dict) else None
    if decision == "ask":
        return Outcome(ASKS, command if isinstance(command, str) else original)
    if not isinstance(command, str):
        return none
    if decision == "allow":
        return Outcome(FILTERED, command)
    if getattr(module, "REWRITE_NEEDS_ALLOW", False):
        return none  # the client applies updatedInput only together with allow
    return Outcome(REWRITTEN_OWN_RULES, command)
