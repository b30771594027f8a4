"""cc_filter.kit.options: an option's values in every spelling, and the filters that pass a
format they do not read through untouched."""
import pytest

from cc_filter.kit.options import asks_other_format, option_values


@pytest.mark.parametrize("argv, values", [
    (["eslint", "-f", "json", "."], ["json"]),
    (["eslint", "-fjson", "."], ["json"]),
    (["eslint", "--format", "json"], ["json"]),
    (["eslint", "--format=json"], ["json"]),
    (["eslint", "--format=json", "-f", "stylish"], ["json", "stylish"]),
    (["eslint", "-f"], []),                      # no value after the option
    (["eslint", "--fix", "."], []),              # another long option that starts like it
    (["eslint", "--formatter=x"], []),           # not --format=
])
def test_values_in_every_spelling(argv, values):
    assert option_values(argv, "-f", "--format") == values


def test_long_only_option_ignores_short_lookalikes():
    assert option_values(["ruff", "check", "-o", "x", "--output-format=json"], None,
                         "--output-format") == ["json"]


@pytest.mark.parametrize("argv, other", [
    (["shellcheck", "a.sh"], False),
    (["shellcheck", "-f", "tty", "a.sh"], False),
    (["shellcheck", "-f", "gcc", "a.sh"], True),
    (["shellcheck", "--format=json1", "a.sh"], True),
    (["shellcheck", "-fdiff", "a.sh"], True),
])
def test_a_format_the_filter_does_not_read_is_asked_for(argv, other):
    assert asks_other_format(argv, "-f", "--format", ("tty",)) is other


@pytest.mark.parametrize("module, argv, passthrough", [
    ("js.eslint", ["eslint", "-f", "json", "."], True),
    ("js.eslint", ["eslint", "--format=stylish", "."], False),
    ("lint.shellcheck", ["shellcheck", "--format=gcc", "a.sh"], True),
    ("lint.yamllint", ["yamllint", "-fparsable", "."], True),
    ("lint.yamllint", ["yamllint", "-f", "auto", "."], False),
    ("python.ruff", ["ruff", "check", "--output-format", "json"], True),
    ("python.ruff", ["ruff", "check", "--statistics"], True),
    ("python.ruff", ["ruff", "check", "--output-format=concise"], False),
    ("go.golangci_lint", ["golangci-lint", "run", "--out-format=json"], True),
    ("go.golangci_lint", ["golangci-lint", "run", "--output.format=line-number,tab"], False),
])
def test_filters_pass_formats_they_do_not_read_through(module, argv, passthrough):
    import importlib

    from cc_filter.kit.filter import Filter

    mod = importlib.import_module(f"cc_filter.filters.{module}")
    (cls,) = [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, Filter)
              and c is not Filter and c.__module__ == mod.__name__]
    assert cls(argv).passthrough is passthrough
