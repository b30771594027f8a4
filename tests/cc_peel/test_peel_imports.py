"""The package loads its modules on first use (PEP 562): `cc_peel.keys` (cc-filter run) and
`cc_peel.record` (cc-hook's stages) come without the lexer and the peeler."""
import subprocess
import sys

import pytest

import cc_peel


def loaded_after(statement: str) -> list:
    code = (f"import sys; before = set(sys.modules); {statement}\n"
            "print(' '.join(sorted(m for m in set(sys.modules) - before "
            "if m.startswith(('cc_', 're', 'json')))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("statement, expected", [
    ("import cc_peel", ["cc_peel"]),
    ("from cc_peel.keys import key_of; key_of(['git', '-C', 'x', 'status'])",
     ["cc_peel", "cc_peel.keys"]),
    ("from cc_peel import key_of; key_of(['ls'])", ["cc_peel", "cc_peel.keys"]),
    ("from cc_peel import record; record.dumps(record.loads('{}'))",
     ["cc_peel", "cc_peel.record"]),
])
def test_what_each_import_loads(statement, expected):
    assert loaded_after(statement) == expected


def test_the_public_names_still_work():
    assert cc_peel.peel("git status").segments[0].key == "git status"
    assert cc_peel.key_of(["/usr/bin/git", "log"]) == "git log"
    assert cc_peel.Segment is type(cc_peel.peel("ls").segments[0])
    assert cc_peel.Peeled.__name__ == "Peeled" and callable(cc_peel.normalise)
    assert set(cc_peel.__all__) <= set(dir(cc_peel))
    with pytest.raises(AttributeError):
        cc_peel.no_such_name  # noqa: B018
