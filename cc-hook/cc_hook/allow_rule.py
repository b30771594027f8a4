"""What an allow rule for a command names: its program and subcommand (`rule_prefix`), for the
hints that tell the user which rule would let the agent run it unasked, and so filtered
(`cc-hook test`, `verify`, Claude Code's ask). A compound command (`SHELL_OPERATORS`) gets
no such hint: one rule does not cover it.
"""

SHELL_OPERATORS = ("&&", "||", ";", "|", "&", "$(", "`", ">", "<", "\n")


def rule_prefix(command: str) -> str:
    """The words an allow rule for `command` names: the program and its subcommand
    (`npm run build`, `cargo test`, `python -m pytest`, `pytest`)."""
    import os
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if not words:
        return command
    prefix = [words[0]]
    rest = words[1:]
    if os.path.basename(words[0]).startswith("python") and rest[:1] == ["-m"] and len(rest) > 1:
        return " ".join(prefix + rest[:2])
    for word in rest[:2]:
        if word.startswith("-") or not (word.replace("-", "").isalpha() and word.islower()):
            break  # an option, a path, a file name, a pattern: not a subcommand
        prefix.append(word)
        if words[0] not in ("npm", "pnpm", "yarn", "bun") or word != "run":
            break
    return " ".join(prefix)
