#!/usr/bin/env python3
"""Extract Claude Code's built-in auto-allowed (read-only) commands from the client's binary.

    python scripts/claude_builtin_allow.py [--check] [BINARY]

The pinned client (tests/agents/harness.CLIENTS["claude"]) is a single-file executable whose
JavaScript holds the read-only command tables the client consults before asking: commands with
the flags that keep them read-only (`"git status": {safeFlags: {"--short": "none", …}}`), the
commands allowed with any arguments (`cat`, `head`, `wc`, …), the regexes for `ls`, `find`,
`echo` …, and the environment variables it lets stand in front of a command. This script
finds those tables by stable anchors, evaluates them with node (callbacks are recorded as
present, not run) and writes them as JSON to cc-gate/cc_gate/agents/claude_builtin.json, tagged
with the client version. `--check` compares instead of writing (exit 1 on a difference): run it
whenever the pinned version changes.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "cc-gate", "cc_gate", "agents", "claude_builtin.json")
sys.path.insert(0, os.path.join(ROOT, "tests", "agents"))

#: A string inside each module whose tables we need (stable across minifier renames).
ANCHORS = {
    "git": '"git status":{safeFlags',       # the git / gh / docker / rg / pyright tables
    "readonly": 'sha256sum:{safeFlags',     # the merged table, simple lists and regexes
}
#: Variables the read-only module assigns, found by the shape of their values (names change).
NODE_SCRIPT = r"""
const fs = require("fs");
const [git, ro] = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const stub = new Proxy(function () { return stub; }, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => "" : stub),
});
const store = {};
const scope = new Proxy(store, {
  has: (t, k) => typeof k === "string" && !(k in globalThis),
  get: (t, k) => (k === Symbol.unscopables ? undefined : k in t ? t[k] : stub),
  set: (t, k, v) => { t[k] = v; return true; },
});
const run = new Function("scope", "with (scope) { " + git + "\n" + ro + " }");
run(scope);
function table(obj) {
  if (!obj || typeof obj !== "object" || obj instanceof Set || Array.isArray(obj)) return null;
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    if (!v || typeof v !== "object" || !("safeFlags" in v || "additionalCommandIsDangerousCallback" in v)) return null;
    out[k] = {
      safe_flags: v.safeFlags || {},
      respects_double_dash: v.respectsDoubleDash !== false,
      callback: typeof v.additionalCommandIsDangerousCallback === "function",
      regex: v.regex ? v.regex.source : null,
    };
  }
  return Object.keys(out).length ? out : null;
}
const found = { tables: {}, sets: {}, arrays: {}, regex_sets: {} };
for (const [name, v] of Object.entries(store)) {
  const t = table(v);
  if (t) { found.tables[name] = t; continue; }
  if (v instanceof Set) {
    const items = [...v];
    if (items.length && items.every((x) => x instanceof RegExp))
      found.regex_sets[name] = items.map((r) => r.source);
    else if (items.every((x) => typeof x === "string")) found.sets[name] = items;
  } else if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "string")) found.arrays[name] = v;
    else if (v.every((x) => Array.isArray(x))) found.arrays[name] = v;
  }
}
process.stdout.write(JSON.stringify(found));
"""


def module_around(src: str, anchor: str) -> str:
    """The body of the lazily-initialised module `var X=E(()=>{ … })` holding `anchor`: the
    first closing `})` after it at which the body parses (checked by node)."""
    at = src.index(anchor)
    starts = [m for m in re.finditer(r"var [\w$]+=[\w$]+\(\(\)=>\{", src[max(0, at - 400000):at])]
    if not starts:
        raise SystemExit(f"no module start before {anchor!r}")
    begin = max(0, at - 400000) + starts[-1].end()
    pos = at
    with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as f:
        probe = f.name
    try:
        for _ in range(400):
            end = src.index("})", pos)
            body = src[begin:end]
            with open(probe, "w") as f:
                f.write("new Function(" + json.dumps(body) + ");")
            if subprocess.run(["node", probe], capture_output=True).returncode == 0:
                return body
            pos = end + 2
    finally:
        os.unlink(probe)
    raise SystemExit(f"cannot find the end of the module holding {anchor!r}")


def regex_literal(src: str, anchor: str) -> str:
    i = src.index(anchor)
    return src[i:i + 200]


def extract(binary: str) -> dict:
    data = open(binary, "rb").read()
    at = data.index(ANCHORS["git"].encode())
    start = data.rfind(b"\0", 0, at) + 1
    stop = data.find(b"\0", at)
    src = data[start:stop].decode("utf-8", "replace")
    bodies = [module_around(src, ANCHORS["git"]), module_around(src, ANCHORS["readonly"])]
    # the helper that turns "cat" into /^cat(?:\s|$)[^<>()$`|{}&;\n\r]*$/ lives outside them
    mark = "(e){return new RegExp(`^${e}(?:\\\\s|$)"
    at = src.find(mark)
    if at == -1:
        raise SystemExit("cannot find the helper that builds the command regexes")
    helper = src[src.rfind("function ", 0, at):src.index("`)}", at) + 3]
    bodies[1] = helper + ";" + bodies[1]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bodies.json"), "w") as f:
            json.dump(bodies, f)
        with open(os.path.join(tmp, "eval.js"), "w") as f:
            f.write(NODE_SCRIPT)
        proc = subprocess.run(["node", os.path.join(tmp, "eval.js"),
                               os.path.join(tmp, "bodies.json")], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"node could not evaluate the tables: {proc.stderr[-2000:]}")
    found = json.loads(proc.stdout)
    safe_env = re.search(r'new Set\((\["GOEXPERIMENT","GOOS"[^\]]*\])\)', src)
    return shape(found, json.loads(safe_env.group(1)) if safe_env else [])


def _one(kind: dict, test, what: str):
    hits = [v for v in kind.values() if test(v)]
    if len(hits) != 1:
        raise SystemExit(f"expected one {what}, found {len(hits)}")
    return hits[0]


def shape(found: dict, safe_env: list) -> dict:
    """Name the tables by what they hold (minified names change with every release)."""
    tables = found["tables"]
    flags = _one(tables, lambda t: "sha256sum" in t and "git status" in t, "merged flag table")
    sets, arrays = found["sets"], found["arrays"]
    any_args = _one(arrays, lambda a: "cat" in a and "wc" in a and "uptime" in a,
                    "list of commands allowed with any arguments")
    glob_ok = _one(sets, lambda a: "ls" in a and "cat" in a and "cd" in a and "md5sum" in a,
                   "set of commands allowed with globs")
    no_args = _one(sets, lambda a: set(a) == {"pwd", "whoami", "alias"} or
                   ("pwd" in a and "whoami" in a and len(a) <= 6), "commands allowed bare")
    exact = _one(arrays, lambda a: a and all(isinstance(x, list) for x in a) and
                 ["node", "--version"] in a, "exact commands")
    xargs_targets = _one(arrays, lambda a: a[:2] == ["echo", "printf"], "xargs targets")
    find_bad = _one(sets, lambda a: "-delete" in a and "-exec" in a, "find's dangerous flags")
    regexes = _one(found["regex_sets"], lambda r: any(x.startswith("^ls") for x in r),
                   "read-only regexes")
    package = "@anthropic-ai/claude-code"
    from harness import CLIENTS  # the pinned version

    return {
        "client": package, "version": CLIENTS["claude"][1],
        "source": "scripts/claude_builtin_allow.py, from the client's single-file executable",
        "flag_commands": flags,
        "any_args": any_args, "glob_ok": sorted(glob_ok), "no_args": sorted(no_args),
        "exact": exact, "xargs_targets": xargs_targets, "find_dangerous": sorted(find_bad),
        "regexes": regexes, "safe_env": safe_env,
    }


def main(argv) -> int:
    check = "--check" in argv
    args = [a for a in argv if not a.startswith("--")]
    if args:
        binary = args[0]
    else:
        import harness

        exe = harness.install_client("claude")
        binary = os.path.realpath(exe)
        native = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(binary))),
                              "claude-code-linux-x64", "claude")
        if os.path.exists(native):
            binary = native
    table = extract(binary)
    text = json.dumps(table, indent=1, sort_keys=False) + "\n"
    if check:
        with open(OUT) as f:
            if json.load(f) != table:
                print(f"{OUT} differs from what {binary} holds: re-run without --check")
                return 1
        print(f"{OUT}: matches {binary}")
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT} ({len(table['flag_commands'])} flag commands, "
          f"{len(table['any_args'])} any-argument commands, {len(table['regexes'])} regexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
