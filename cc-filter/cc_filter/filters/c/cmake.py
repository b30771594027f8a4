from cc_filter.filter import Filter


class X(Filter):
    name = "cmake"
    match_command = r"^cmake(\s|$)"
