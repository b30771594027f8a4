"""The make filter (GNU Make 4.3 with gcc 12.2 recipes)."""
from cc_filter.filters.c.make import Make


def test_make_drops_commands_and_directories_and_keeps_recipe_output_on_failure():
    text = ("make -C docs\nmake[1]: Entering directory '/tmp/calc/docs'\nbuilding docs\n"
            "docs/index.md is missing\nmake[1]: *** [Makefile:3: all] Error 2\n"
            "make[1]: Leaving directory '/tmp/calc/docs'\nmake: *** [Makefile:21: docs] Error 2\n")
    assert list(Make(["make", "docs"]).run(text.splitlines(), 2)) == [
        "make -C docs", "building docs", "docs/index.md is missing",
        "make[1]: *** [Makefile:3: all] Error 2", "make: *** [Makefile:21: docs] Error 2",
        "... (2 Entering/Leaving directory lines omitted)"]


def test_make_success_keeps_the_tail_of_recipe_output():
    text = "".join(f"check {n}: ok\n" for n in range(1, 13)) + "all checks passed\n"
    out = list(Make(["make", "test"]).run(text.splitlines(), 0))
    assert out[0] == "... (3 lines of recipe output omitted)"
    assert out[-1] == "all checks passed" and len(out) == 11


def test_make_counts_compile_commands_and_keeps_diagnostics():
    text = ("cc -Wall -O2 -c src/div.c -o build/div.o\n"
            "src/div.c:3:17: error: expected ‘;’ before ‘}’ token\n"
            "    3 |     return a / b\n      |                 ^\n"
            "make: *** [Makefile:12: build/div.o] Error 1\n"
            "cc -Wall -O2 -c src/fact.c -o build/fact.o\n")
    assert list(Make(["make", "-k"]).run(text.splitlines(), 2)) == [
        "src/div.c:3:17: error: expected ‘;’ before ‘}’ token",
        "make: *** [Makefile:12: build/div.o] Error 1",
        "... (2 echoed build commands omitted)",
        "... (2 excerpt and context lines omitted)"]


def test_a_long_successful_build_shows_its_real_last_lines():
    """Past the 200-line cap a success still ends with the recipes' last 10 lines, not the
    10 lines before the cap."""
    from cc_filter.filters.c.make import Make

    lines = [f"step {i}" for i in range(1, 451)]
    out = list(Make(["make"]).run(lines, 0))
    assert out[0] == "... (440 lines of recipe output omitted)"
    assert out[1:11] == [f"step {i}" for i in range(441, 451)]
