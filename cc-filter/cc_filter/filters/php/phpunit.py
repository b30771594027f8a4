from cc_filter.filter import Filter


class X(Filter):
    name = "phpunit"
    match_command = r"^phpunit(\s|$)"
