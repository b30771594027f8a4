"""The mypy filter (lines from real mypy 2.4 runs)."""
from cc_filter.filters.python.mypy import Mypy


def run(argv, text, exit_code=1):
    return list(Mypy(argv).run(text.splitlines(), exit_code))


def test_plain_errors_pass_unchanged():
    text = ('inventory/report.py:9: error: Unsupported operand types for + ("str" and "int")  [operator]\n'
            "Found 1 error in 1 file (checked 3 source files)\n")
    assert run(["mypy", "inventory"], text) == text.splitlines()


def test_pretty_output_is_joined_back_to_one_line_per_message():
    text = """\
inventory/pricing.py:5: error: Incompatible return value type (got "float",
expected "int")  [return-value]
        return item.price
               ^~~~~~~~~~
inventory/pricing.py:9: error: Unsupported operand types for + ("str" and
"int")  [operator]
        return "SKU " + item.qty
                        ^~~~~~~~
Found 2 errors in 1 file (checked 1 source file)
"""
    assert run(["mypy", "--pretty", "inventory"], text) == [
        'inventory/pricing.py:5: error: Incompatible return value type (got "float", expected "int")  [return-value]',
        'inventory/pricing.py:9: error: Unsupported operand types for + ("str" and "int")  [operator]',
        "... (4 source excerpt lines omitted)",
        "Found 2 errors in 1 file (checked 1 source file)",
    ]


def test_repeated_messages_keep_every_place_and_say_as_above():
    text = "".join(f"legacy.py:{n}: error: Function is missing a type annotation  [no-untyped-def]\n"
                   for n in (1, 5, 9)) + "".join(
        f'legacy.py:{n}: error: Call to untyped function "{f}" in typed context  [no-untyped-call]\n'
        for n, f in ((20, "load"), (21, "parse"), (21, "count")))
    assert run(["mypy", "--strict", "legacy.py"], text) == [
        "legacy.py:1: error: Function is missing a type annotation  [no-untyped-def]",
        "legacy.py:5: error: (no-untyped-def, as above)",
        "legacy.py:9: error: (no-untyped-def, as above)",
        'legacy.py:20: error: Call to untyped function "load" in typed context  [no-untyped-call]',
        'legacy.py:21: error: "parse" (no-untyped-call, as above)',
        'legacy.py:21: error: "count" (no-untyped-call, as above)',
    ]


def test_pretty_excerpt_lines_are_counted():
    text = ("a.py:5: error: Missing return statement  [return]\n"
            "        def f() -> int:\n"
            "        ^~~~~~~~~~~~~~~\n"
            "Found 1 error in 1 file (checked 1 source file)\n")
    assert run(["mypy", "--pretty", "a.py"], text) == [
        "a.py:5: error: Missing return statement  [return]",
        "... (2 source excerpt lines omitted)",
        "Found 1 error in 1 file (checked 1 source file)",
    ]


def test_notes_stay_with_their_error_and_block_folding():
    text = ("a.py:3: error: No overload variant matches  [call-overload]\n"
            "a.py:3: note: Possible overload variants:\n"
            "a.py:7: error: No overload variant matches  [call-overload]\n"
            "a.py:9: error: No overload variant matches  [call-overload]\n")
    out = run(["mypy", "a.py"], text)
    assert out[:2] == ["a.py:3: error: No overload variant matches  [call-overload]",
                       "a.py:3: note: Possible overload variants:"]


def test_json_output_passes_through():
    assert run(["mypy", "-O", "json", "."], '{"file": "a.py"}\n') == ['{"file": "a.py"}']


def test_a_repeat_names_its_message_when_its_code_had_another_since():
    """mypy's no-untyped-def has two wordings: a repeat after the other one says where its
    own was shown, so `as above` never points at the wrong message."""
    missing = "Function is missing a type annotation  [no-untyped-def]"
    returns = "Function is missing a return type annotation  [no-untyped-def]"
    text = "".join(f"legacy.py:{n}: error: {m}\n"
                   for n, m in ((1, missing), (5, returns), (9, returns), (13, missing)))
    assert run(["mypy", "--strict", "legacy.py"], text) == [
        f"legacy.py:1: error: {missing}",
        f"legacy.py:5: error: {returns}",
        "legacy.py:9: error: (no-untyped-def, as above)",
        "legacy.py:13: error: (no-untyped-def, as at legacy.py:1)",
    ]
