"""What a user asked of a tool by its options, for a filter deciding whether it knows the
output: the values given to an option in each spelling command-line parsers accept."""


def option_values(argv: list[str], short: str | None, long: str) -> list[str]:
    """The values given to the option `short` / `long` in `argv`, in order: `-f X`, `-fX`,
    `--format X`, `--format=X` (`short` None: the long spellings only). An option last in
    argv, with no value after it, gives none."""
    values = []
    for i, word in enumerate(argv):
        if word in (short, long):
            if i + 1 < len(argv):
                values.append(argv[i + 1])
        elif word.startswith(long + "="):
            values.append(word[len(long) + 1:])
        elif short and word.startswith(short) and len(word) > len(short) and word[1] != "-":
            values.append(word[len(short):])
    return values


def asks_other_format(argv: list[str], short: str | None, long: str, own) -> bool:
    """True when the user chose an output format other than the ones in `own` (a filter
    that reads one format passes any other through untouched)."""
    return any(value not in own for value in option_values(argv, short, long))
