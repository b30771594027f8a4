"""The go-build filter (lines from go1.19 runs)."""
from cc_filter.filters.go.go_build import GoBuild


def test_go_build_verbose_package_list_is_counted():
    text = "example.com/inventory/audit\nexample.com/inventory/cmd/inventory\n"
    assert list(GoBuild(["go", "build", "-v", "./..."]).run(text.splitlines(), 0)) == [
        "built 2 packages"]


def test_go_build_errors_stay():
    text = ("# example.com/inventory/report\n"
            "report/report_extra.go:27:12: too many return values\n\thave (int, nil)\n\twant (int)\n")
    assert list(GoBuild(["go", "build", "./..."]).run(text.splitlines(), 2)) == text.splitlines()
