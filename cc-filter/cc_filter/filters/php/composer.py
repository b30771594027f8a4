from cc_filter.filter import Filter


class X(Filter):
    name = "composer"
    match_command = r"^composer(\s|$)"
