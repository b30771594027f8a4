"""The cold commands behind the CLI: init, uninstall, verify, status, test."""
from ctxcrl.console import EXIT_USAGE


def dispatch(args: dict) -> int:
    scope = "project" if args["--project"] else "global" if args["--global"] else None
    if args["init"]:
        from .install import init

        return init(args["--agent"], scope or "global", args["--dry-run"],
                    link=True if args["--link"] else None, coverage=True)
    if args["uninstall"]:
        from .uninstall import uninstall

        return uninstall(args["--agent"], scope, args["--dry-run"], purge=args["--purge"])
    if args["verify"]:
        from .verify import verify

        return verify(coverage=True)
    if args["status"]:
        from .verify import status

        return status()
    if args["test"]:
        from .synthetic import test

        return test(args["<agent>"], args["<command>"], run=args["--run"])
    return EXIT_USAGE
