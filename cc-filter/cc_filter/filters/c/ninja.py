from cc_filter.filter import Filter


class X(Filter):
    name = "ninja"
    match_command = r"^ninja(\s|$)"
