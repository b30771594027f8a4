"""Where a command can sit inside a compound command, for the property tests of cc-peel (every
command bash runs is a segment) and cc-gate (no hidden command escapes a deny).

`CONSTRUCTS`: each compound construct with `@` where its command goes, written so that bash
runs that command exactly once (`while` breaks, `case` matches). `places` wraps one command
in one construct or list; `trees` nests them (`render` writes a tree out).
"""
from hypothesis import strategies as st

CONSTRUCTS = {
    "subshell": "( @ )",  # "((" would be arithmetic
    "group": "{ @; }",
    "case": "case a in a) @;; esac",
    "case-paren": "case a in (a) @;; esac",
    "for": "for v in 1; do @; done",
    "while": "while true; do @; break; done",
}
#: `if A; then B; fi` holds two commands: its condition, then its body.
IF = "if @; then @; fi"
LIST_OPERATORS = (";", "&&", "|")

def fill(template: str, *commands: str) -> str:
    """`template` with each `@` replaced by the next of `commands`."""
    parts = template.split("@")
    assert len(parts) == len(commands) + 1, (template, commands)
    return "".join(part + text for part, text in zip(parts, commands)) + parts[-1]


#: One command (`@`) alone, after another in a list, or in one construct.
places = st.sampled_from(["@", "true; @", "true && @", fill(IF, "true", "@"),
                          *CONSTRUCTS.values()])


def render(tree, command) -> str:
    """A generated tree as a command line; `command(leaf)` writes each ("cmd", …) leaf, in
    writing order."""
    kind = tree[0]
    if kind == "cmd":
        return command(tree)
    if kind == "list":
        _, op, left, right = tree
        return f"{render(left, command)} {op} {render(right, command)}"
    if kind == "if":
        condition = render(tree[1], command)
        return fill(IF, condition, render(tree[2], command))
    return fill(CONSTRUCTS[kind], render(tree[1], command))


def trees(leaf, substitution=None, max_leaves=6):
    """Trees of lists, `if` and every construct, with `leaf` commands at the bottom;
    `substitution(inner)`, when given, makes a leaf that holds `$( inner )`."""
    def extend(inner):
        nodes = [st.builds(lambda op, a, b: ("list", op, a, b), st.sampled_from(LIST_OPERATORS),
                           inner, inner),
                 st.builds(lambda a, b: ("if", a, b), inner, inner)]
        nodes += [st.builds(lambda a, kind=kind: (kind, a), inner) for kind in CONSTRUCTS]
        if substitution is not None:
            nodes.append(substitution(inner))
        return st.one_of(*nodes)

    return st.recursive(leaf, extend, max_leaves=max_leaves)
