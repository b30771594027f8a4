"""Running a stage's `main()` in-process with given stdin bytes (gate and rewrite CLI tests)."""
import io
import sys


def run_main(main, argv, stdin: bytes | str = b"", capsys=None):
    """(exit code, stdout text, stderr text) of `main(argv)` fed `stdin`.

    `capsys` must be pytest's `capsysbinary` (output may hold bytes that are not UTF-8)."""
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    old_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        if capsys is not None:
            capsys.readouterr()
        code = main(list(argv))
    finally:
        sys.stdin = old_stdin
    captured = capsys.readouterr()
    return (code, captured.out.decode("utf-8", "surrogateescape"),
            captured.err.decode("utf-8", "surrogateescape"))
