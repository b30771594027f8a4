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
errors. Every dropped line is counted at the end, one marker per kind: `... (N
refresh/reading lines omitted)`, `progress lines` (apply's Creating…/complete), `init step
lines`, `explanation lines` (the legend, the preamble and notes), `attribute lines` (resource
block lines not shown: unchanged or `(known after apply)` values, created/destroyed resources'
listings, block headers and braces; an output's value, its name shown). The error/warning box
borders carry nothing and are not counted. Nothing is injected; `-json` output passes through.
Tested with Terraform 1.11.4.
"""
from cc_filter.kit.lines import TrimmedLineFilter, omitted

# the kinds of dropped lines, each counted in one `... (N <kind> omitted)` marker at the end
_REFRESH = "refresh/reading lines"
_APPLYING = "progress lines"
_INIT = "init step lines"
_EXPLAINING = "explanation lines"
_ATTRIBUTES = "attribute lines"
_PROGRESS = (": Creation complete", ": Creating...", ": Still creating...", ": Modifying...",
             ": Destroying...", ": Modifications complete", ": Destruction complete",
             ": Still modifying...", ": Still destroying...")
_INIT_PREFIXES = ("Initializing the backend", "Initializing provider plugins",
                  "Initializing modules", "- Finding ", "- Installing ", "- Installed ",
                  "- Using previously-installed", "- Reusing previous version",
                  "- terraform.io/builtin/")

_ACTIONS = (" will be created", " will be updated in-place", " will be destroyed",
            " must be replaced", " will be read during apply", " must be ", " will be ",
            " has moved to ", " has changed")
_DROP_PREFIXES = (
    "Terraform used the selected providers", "plan. Resource actions are indicated",
    "Resource actions are indicated", "Terraform will perform the following actions",
    "Terraform has compared your real infrastructure", "Note: You didn't use the -out option",
    "guarantee to take exactly these actions", "Terraform has created a lock file",
    "selections it made above",
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
        self.dropped_kinds: dict[str, int] = {}  # kind → raw lines dropped, in first-seen order

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

    def _drop(self, kind: str):
        self.dropped_kinds[kind] = self.dropped_kinds.get(kind, 0) + 1
        return ()

    def feed_trimmed(self, text: str, body: str):
        # error and warning boxes: ╷ │ ╵ (the borders carry nothing; the text is kept)
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
        if body.endswith(("Refreshing state...", "Reading...")) or "Read complete after" in body \
                or ": Refreshing state..." in body:
            return self._drop(_REFRESH)
        if any(p in body for p in _PROGRESS):
            return self._drop(_APPLYING)
        if body.startswith(_INIT_PREFIXES):
            return self._drop(_INIT)
        if body.startswith(_DROP_PREFIXES) or body in _LEGEND or body.startswith("─"):
            return self._drop(_EXPLAINING)
        if self.in_outputs:
            symbol, _, rest = body.partition(" ")
            if symbol in ("+", "-", "~") and " = " in rest and text.startswith("  ") \
                    and not text.startswith("      "):
                # the output's name is shown, its value (known after apply, a nested map) not
                self._drop(_ATTRIBUTES)
                return (f"  {symbol} {rest.split(' = ', 1)[0].strip()}",)
            return self._drop(_ATTRIBUTES)
        if self.resource is not None:
            if body.startswith(("resource ", "+ resource ", "- resource ", "~ resource ",
                                "-/+ resource ", "+/- resource ", "data ", "<= data ")):
                return self._drop(_ATTRIBUTES)
            opened = body.endswith(("{", "[")) and " = " in body
            if body in ("}", "]", "},", "],") or body.startswith(("} ->", "] ->")):
                if self.path:
                    self.path.pop()
                return self._drop(_ATTRIBUTES)
            if opened:
                name = body.rstrip("{[").rsplit(" = ", 1)[0].split()[-1]
                self.path.append(name)
                return self._drop(_ATTRIBUTES)
            if body.startswith("# (") and "hidden" in body:
                return self._drop(_ATTRIBUTES)
            if body.endswith("{"):  # a nested block without `=` (`+ tags {`)
                self.path.append(body.rstrip("{ ").split()[-1])
                return self._drop(_ATTRIBUTES)
            changed = self._changed(body)
            return (changed,) if changed else self._drop(_ATTRIBUTES)
        return (body,)

    def finish(self, exit_code: int):
        out = [omitted(n, kind) for kind, n in self.dropped_kinds.items()]
        if exit_code == 2 and "-detailed-exitcode" in self.argv:
            out.append("(exit code 2 with -detailed-exitcode: the plan has changes)")
        return out
