"""terraform plan / apply / init / validate: what will change, the plan count, every error.

plan/apply: each resource's `# <address> will be created|updated in-place|destroyed|must be
replaced` line is kept (without the `#`); for updates and replacements every changed
attribute follows as `~ path = old -> new` (nested blocks flattened to a dotted path:
`~ input.image = "shop/web:1.4.0" -> "shop/web:1.5.0"`), with `# forces replacement` kept.
Values `(known after apply)`, unchanged attributes, the attribute listings of created and
destroyed resources, `Refreshing state…` lines, the symbol legend and the `-out` note go.
`Plan: N to add, N to change, N to destroy.`, `No changes.`, `Apply complete! …`, each
`Changes to Outputs:` name and every Error/Warning box (its text without the box drawing)
stay. init: only its result (`Terraform has been successfully initialized!`), warnings and
errors. Nothing is injected; `-json` output passes through. Tested with Terraform 1.11.4.
"""
from cc_filter.lines import TrimmedLineFilter

_ACTIONS = (" will be created", " will be updated in-place", " will be destroyed",
            " must be replaced", " will be read during apply", " must be ", " will be ",
            " has moved to ", " has changed")
_DROP_PREFIXES = (
    "Terraform used the selected providers", "plan. Resource actions are indicated",
    "Resource actions are indicated", "Terraform will perform the following actions",
    "Terraform has compared your real infrastructure", "Note: You didn't use the -out option",
    "guarantee to take exactly these actions", "Initializing the backend",
    "Initializing provider plugins", "Initializing modules", "- Finding ", "- Installing ",
    "- Installed ", "- Using previously-installed", "- Reusing previous version",
    "- terraform.io/builtin/", "Terraform has created a lock file", "selections it made above",
    "so that Terraform can guarantee", "you run \"terraform init\" in the future",
    "You may now begin working with Terraform", "any changes that are required for your",
    "should now work.", "If you ever set or change modules", "rerun this command to reinitialize",
    "commands will detect it and remind you", "Partner and community providers are signed",
    "If you'd like to know more about provider signing", "Unless you have made equivalent changes",
    "Saved the plan to:", "To perform exactly these actions, run", "terraform apply \"",
    "Terraform detected the following changes made outside", "Objects have changed outside",
    "Terraform planned the following actions, but then encountered",
)
_LEGEND = ("+ create", "~ update in-place", "- destroy", "-/+ destroy and then create replacement",
           "+/- create replacement and then destroy", "<= read (data resources)")


class Terraform(TrimmedLineFilter):
    name = "terraform"
    match_command = r"^terraform (plan|apply|destroy|init|validate|refresh)(\s|$)"
    description = "terraform plan/apply: resource actions and changed attributes; noise dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = "-json" in argv
        self.resource: str | None = None  # action of the resource block being read
        self.path: list[str] = []  # attribute names of the open nested blocks
        self.in_outputs = False

    def _changed(self, body: str) -> str | None:
        """`~ input = "a" -> "b"` inside a resource block → `~ path = "a" -> "b"`."""
        symbol, _, rest = body.partition(" ")
        if symbol not in ("~", "+", "-", "-/+", "+/-") or " -> " not in rest and \
                "# forces replacement" not in rest:
            return None
        if rest.endswith("(known after apply)") and "# forces replacement" not in rest:
            return None
        name, eq, value = rest.partition(" = ")
        if eq and self.path:
            return f"  {symbol} {'.'.join(self.path + [name.strip()])} = {value.strip()}"
        if eq:
            return f"  {symbol} {name.strip()} = {value.strip()}"
        where = ".".join(self.path)
        return f"  {symbol} {where}: {rest.strip()}" if where else f"  {symbol} {rest.strip()}"

    def feed_trimmed(self, text: str, body: str):
        # error and warning boxes: ╷ │ ╵
        if body[0] in "╷╵":
            return ()
        if body[0] == "│":
            inner = body[1:].strip()
            return (inner,) if inner else ()
        if body.startswith("# ") and any(a in body for a in _ACTIONS):
            self.resource, self.path = body[2:], []
            return (body[2:],)
        if body.startswith("Changes to Outputs:"):
            self.in_outputs, self.resource = True, None
            return (body,)
        if body.startswith(("Plan:", "No changes.", "Apply complete!", "Destroy complete!",
                            "Terraform has been successfully initialized",
                            "Success! The configuration is valid", "Error:", "Warning:")):
            self.resource, self.in_outputs = None, False
            return (body,)
        if body.startswith(_DROP_PREFIXES) or body in _LEGEND or body.startswith("─") \
                or body.endswith(("Refreshing state...", "Reading...", "Read complete after")) \
                or ": Refreshing state..." in body or ": Creation complete" in body \
                or ": Creating..." in body or ": Still creating..." in body \
                or ": Modifying..." in body or ": Destroying..." in body \
                or ": Modifications complete" in body or ": Destruction complete" in body \
                or ": Still modifying..." in body or ": Still destroying..." in body:
            return ()
        if self.in_outputs:
            symbol, _, rest = body.partition(" ")
            if symbol in ("+", "-", "~") and " = " in rest and text.startswith("  ") \
                    and not text.startswith("      "):
                return (f"  {symbol} {rest.split(' = ', 1)[0].strip()}",)
            return ()
        if self.resource is not None:
            if body.startswith(("resource ", "+ resource ", "- resource ", "~ resource ",
                                "-/+ resource ", "+/- resource ", "data ", "<= data ")):
                return ()
            opened = body.endswith(("{", "[")) and " = " in body
            if body in ("}", "]", "},", "],") or body.startswith(("} ->", "] ->")):
                if self.path:
                    self.path.pop()
                return ()
            if opened:
                name = body.rstrip("{[").rsplit(" = ", 1)[0].split()[-1]
                self.path.append(name)
                return ()
            if body.startswith("# (") and "hidden" in body:
                return ()
            if body.endswith("{"):  # a nested block without `=` (`+ tags {`)
                self.path.append(body.rstrip("{ ").split()[-1])
                return ()
            changed = self._changed(body)
            return (changed,) if changed else ()
        return (body,)

    def finish(self, exit_code: int):
        if exit_code == 2 and "-detailed-exitcode" in self.argv:
            return ("(exit code 2 with -detailed-exitcode: the plan has changes)",)
        return ()
