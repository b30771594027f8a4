"""The cold commands behind the CLI: init, uninstall, verify, status, test."""


def dispatch(args: dict) -> int:
    scope = "project" if args["--project"] else "global"
    if args["init"]:
        from .install import init

        return init(args["--agent"], scope, args["--dry-run"])
    if args["uninstall"]:
        from .install import uninstall

        return uninstall(args["--agent"], scope, args["--dry-run"])
    if args["verify"]:
        from .verify import verify

        return verify()
    if args["status"]:
        from .verify import status

        return status()
    if args["test"]:
        from .synthetic import test

        return test(args["<agent>"], args["<command>"])
    return 2
