"""The go-build filter (lines from go1.19 runs)."""
from cc_filter.filters.go.go_build import GoBuild


def test_go_build_verbose_package_list_is_counted():
    text = "example.com/inventory/audit\nexample.com/inventory/cmd/inventory\n"
    assert list(GoBuild(["go", "build", "-v", "./..."]).run(text.splitlines(), 0)) == [
        "ok: 2 packages built", "... (2 built packages omitted)"]  # the success is said
    assert list(GoBuild(["go", "build", "-v", "./..."]).run(text.splitlines(), 1)) == [
        "... (2 packages built before the failure omitted)"]


def test_go_downloading_lines_are_counted():
    text = ("go: downloading github.com/google/uuid v1.6.0\n"
            "go: downloading golang.org/x/text v0.14.0\n"
            "main.go:3:2: undefined: x\n")
    assert list(GoBuild(["go", "build", "./..."]).run(text.splitlines(), 1)) == [
        "main.go:3:2: undefined: x", "... (2 go: downloading lines omitted)"]


def test_go_build_errors_stay():
    text = ("# example.com/inventory/report\n"
            "report/report_extra.go:27:12: too many return values\n\thave (int, nil)\n\twant (int)\n")
    assert list(GoBuild(["go", "build", "./..."]).run(text.splitlines(), 2)) == text.splitlines()
