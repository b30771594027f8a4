"""The gcc filter and the shared C diagnostics reader (gcc 12.2, clang 14)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.c.gcc import Gcc

GCC = """\
src/stats.c: In function ‘average’:
src/stats.c:10:9: warning: suggest parentheses around assignment used as truth value [-Wparentheses]
   10 |     if (count = 0) return 0;
      |         ^~~~~
src/main.c: In function ‘main’:
src/main.c:10:5: error: ‘undeclared_total’ undeclared (first use in this function)
   10 |     undeclared_total += 1;
      |     ^~~~~~~~~~~~~~~~
src/main.c:10:5: note: each undeclared identifier is reported only once for each function it appears in
"""

CLANG = """\
src/main.c:9:18: error: variable has incomplete type 'struct stack'
    struct stack s;
                 ^
src/main.c:9:12: note: forward declaration of 'struct stack'
    struct stack s;
           ^
src/main.c:10:5: error: use of undeclared identifier 'undeclared_total'
    undeclared_total += 1;
    ^
2 errors generated.
"""


def test_gcc_errors_come_first_and_excerpts_go():
    assert list(Gcc(["gcc", "-c", "x.c"]).run(GCC.splitlines(), 1)) == [
        "src/main.c:10:5: error: ‘undeclared_total’ undeclared (first use in this function)",
        "src/stats.c:10:9: warning: suggest parentheses around assignment used as truth value [-Wparentheses]",
        "... (6 excerpt and context lines omitted)",  # 2 `In function` lines, 2 excerpts
        "... (1 more note omitted)",  # gcc's "reported only once"
    ]


def test_clang_notes_stay_under_their_error_and_the_summary_is_kept():
    out = list(Gcc(["clang", "-c", "x.c"]).run(CLANG.splitlines(), 1))
    assert out == [
        "src/main.c:9:18: error: variable has incomplete type 'struct stack'",
        "  src/main.c:9:12: note: forward declaration of 'struct stack'",
        "src/main.c:10:5: error: use of undeclared identifier 'undeclared_total'",
        "2 errors generated.",
        "... (6 excerpt and context lines omitted)",  # clang's source line and caret, ×3
    ]


def test_gxx_required_from_here_is_attached_to_the_error():
    text = ("/usr/include/c++/12/bits/stl_algo.h:4820:18:   required from ‘void std::sort(…)’\n"
            "src/index.cpp:10:14:   required from here\n"
            "/usr/include/c++/12/bits/stl_algo.h:1938:50: error: no match for ‘operator-’\n")
    assert list(Gcc(["g++", "-c", "src/index.cpp"]).run(text.splitlines(), 1)) == [
        "/usr/include/c++/12/bits/stl_algo.h:1938:50: error: no match for ‘operator-’",
        "  src/index.cpp:10:14: required from here",
        "... (1 excerpt and context line omitted)",  # the chain inside the system header
    ]


def test_preprocessor_output_passes_through():
    assert list(Gcc(["gcc", "-E", "x.c"]).run(["int main() {", "}"], 0)) == ["int main() {", "}"]


@pytest.mark.parametrize("command,name", [
    ("gcc -Wall -c a.c", "gcc"), ("g++ -std=c++17 a.cpp", "gcc"), ("clang -c a.c", "gcc"),
    ("clang++ a.cpp", "gcc"), ("cc a.c", "gcc"), ("gcc-12 a.c", "gcc"),
    ("make", "make"), ("make -j4 test", "make"), ("gmake all", "make"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
