from cc_filter.filter import Filter


class X(Filter):
    name = "ctest"
    match_command = r"^ctest(\s|$)"
