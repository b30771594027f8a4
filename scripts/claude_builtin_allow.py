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
whenever the pinned version changes. `--out FILE` writes (or checks) another file than the
default one (a table kept for an older client: see claude_builtin.py).

Two layouts are known:
- up to 2.1.2xx (2.1.197): one JavaScript source; each table lives in a lazily initialised
  module `var X=E(()=>{ … })`, found around the anchor and evaluated whole;
- 2.1.332: the source is split into ES module chunks (`// @bun @bytecode`, `import{…}from
  "/$bunfs/root/chunk-….js"`), the two anchors in different chunks ~8.8 MB apart, the tables
  top-level `var`s. Each chunk holding an anchor is parsed with acorn (node's own copy, or an
  installed `acorn`), and every top-level declaration is evaluated alone (a failure leaves that
  one name a stub). Bun keeps one name per binding across chunks, so the chunks share a scope.

Either way nothing of the client runs for real: every name the code does not define itself —
and every global but the plain built-ins (`Object`, `Set`, `RegExp` …; never `process`,
`fetch`, timers) — is a stub that returns itself.
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
#: The classifier shared by both layouts; each layout's script fills `store` first.
CLASSIFY = r"""
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
  let t = null;
  try { t = table(v); } catch (e) { continue; }  // a getter that runs client code
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
fs.writeSync(1, JSON.stringify(found));
process.exit(0);  // timers or promises some declaration started must not run
"""
#: The old layout: the two module bodies, evaluated together in one scope.
MODULE_SCRIPT = r"""
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
""" + CLASSIFY
#: The chunked layout: every top-level declaration of each chunk, one at a time.
CHUNK_SCRIPT = r"""
const fs = require("fs");
let acorn;
try { acorn = require("acorn"); } catch (e) { acorn = require("internal/deps/acorn/acorn/dist/acorn"); }
const chunks = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const stub = new Proxy(function () { return stub; }, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => "" : k === Symbol.iterator ? function* () {} : stub),
});
const SAFE = new Set(["Object", "Array", "Set", "Map", "WeakMap", "WeakSet", "RegExp", "String",
  "Number", "Boolean", "Symbol", "JSON", "Math", "Error", "TypeError", "RangeError", "Date",
  "parseInt", "parseFloat", "isNaN", "isFinite", "Infinity", "NaN", "undefined", "BigInt",
  "Reflect", "encodeURIComponent", "decodeURIComponent", "Uint8Array"]);
const store = {};
const scope = new Proxy(store, {
  has: (t, k) => typeof k === "string" && !SAFE.has(k),
  get: (t, k) => (k === Symbol.unscopables ? undefined : k in t ? t[k] : stub),
  set: (t, k, v) => { t[k] = v; return true; },
});
function run(code) {
  try { new Function("scope", "with (scope) { " + code + "\n}")(scope); } catch (e) { }
}
for (const src of chunks) {
  const ast = acorn.parse(src, { ecmaVersion: "latest", sourceType: "module",
                                 allowAwaitOutsideFunction: true, allowHashBang: true });
  const later = [];
  for (const st of ast.body) {  // functions first: declarations are hoisted in a module
    if (st.type === "FunctionDeclaration" && st.id) {
      run(st.id.name + " = " + src.slice(st.start, st.end) + ";");
    } else if (st.type === "ClassDeclaration" && st.id) {
      later.push(st.id.name + " = " + src.slice(st.start, st.end) + ";");
    } else if (st.type === "VariableDeclaration") {
      for (const d of st.declarations) {
        if (d.id.type === "Identifier" && d.init)
          later.push(d.id.name + " = (" + src.slice(d.init.start, d.init.end) + ");");
      }
    }
  }
  for (const code of later) run(code);
}
""" + CLASSIFY
CHUNK_MARK = b'from"/$bunfs/root/chunk-'


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


def source_around(data: bytes, anchor: str) -> str:
    """The NUL-delimited JavaScript source (the whole program, or one chunk) holding `anchor`."""
    try:
        at = data.index(anchor.encode())
    except ValueError:
        raise SystemExit(f"the binary does not hold {anchor!r}: not a Claude Code executable, "
                         "or a layout this script does not know") from None
    start = data.rfind(b"\0", 0, at) + 1
    stop = data.find(b"\0", at)
    return data[start:stop if stop != -1 else len(data)].decode("utf-8", "replace")


def _evaluate(script: str, bodies: list) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bodies.json"), "w") as f:
            json.dump(bodies, f)
        with open(os.path.join(tmp, "eval.js"), "w") as f:
            f.write(script)
        try:
            proc = subprocess.run(["node", "--expose-internals", os.path.join(tmp, "eval.js"),
                                   os.path.join(tmp, "bodies.json")], capture_output=True,
                                  text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise SystemExit("node did not finish evaluating the tables in 600 s") from None
    if proc.returncode != 0:
        raise SystemExit(f"node could not evaluate the tables: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


def extract(binary: str) -> dict:
    data = open(binary, "rb").read()
    sources = [source_around(data, ANCHORS["git"]), source_around(data, ANCHORS["readonly"])]
    version = client_version(binary, sources)
    if CHUNK_MARK.decode() in sources[0]:  # 2.1.332: ES module chunks
        chunks = list(dict.fromkeys(sources))
        found = _evaluate(CHUNK_SCRIPT, chunks)
        return shape(found, _safe_env("\n".join(chunks)), version)
    src = sources[0]
    bodies = [module_around(src, ANCHORS["git"]), module_around(src, ANCHORS["readonly"])]
    # the helper that turns "cat" into /^cat(?:\s|$)[^<>()$`|{}&;\n\r]*$/ lives outside them
    mark = "(e){return new RegExp(`^${e}(?:\\\\s|$)"
    at = src.find(mark)
    if at == -1:
        raise SystemExit("cannot find the helper that builds the command regexes")
    helper = src[src.rfind("function ", 0, at):src.index("`)}", at) + 3]
    bodies[1] = helper + ";" + bodies[1]
    return shape(_evaluate(MODULE_SCRIPT, bodies), _safe_env(src), version)


def _safe_env(src: str) -> list:
    found = re.search(r'new Set\((\["GOEXPERIMENT","GOOS"[^\]]*\])\)', src)
    return json.loads(found.group(1)) if found else []


def client_version(binary: str, sources: list) -> str:
    """The client's version: its package.json next to the binary (npm), the `// Version: X`
    line of a chunk (2.1.332), the file name of a native install (…/versions/2.1.332), else
    the pinned one."""
    folder = os.path.dirname(os.path.realpath(binary))
    for candidate in (folder, os.path.dirname(folder)):
        try:
            with open(os.path.join(candidate, "package.json")) as f:
                meta = json.load(f)
        except (OSError, ValueError):
            continue
        if str(meta.get("name", "")).startswith("@anthropic-ai/claude-code") and \
                meta.get("version"):
            return meta["version"]
    for src in sources:
        found = re.search(r"^// Version: ([0-9][\w.+-]*)$", src[:2000], re.M)
        if found:
            return found.group(1)
    name = os.path.basename(binary)
    if re.fullmatch(r"\d+\.\d+\.\d+", name):
        return name
    from harness import CLIENTS

    return CLIENTS["claude"][1]


def _one(kind: dict, test, what: str):
    hits = [v for v in kind.values() if test(v)]
    if len(hits) != 1:
        raise SystemExit(f"expected one {what}, found {len(hits)}")
    return hits[0]


def shape(found: dict, safe_env: list, version: str) -> dict:
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
    # 2.1.332 builds it from two lists (["echo", "printf", "wc"] + grep, head, tail …)
    xargs_targets = _one(arrays, lambda a: a[:2] == ["echo", "printf"] and "grep" in a,
                         "xargs targets")
    find_bad = _one(sets, lambda a: "-delete" in a and "-exec" in a, "find's dangerous flags")
    regexes = _one(found["regex_sets"], lambda r: any(x.startswith("^ls") for x in r),
                   "read-only regexes")
    return {
        "client": "@anthropic-ai/claude-code", "version": version,
        "source": "scripts/claude_builtin_allow.py, from the client's single-file executable",
        "flag_commands": flags,
        "any_args": any_args, "glob_ok": sorted(glob_ok), "no_args": sorted(no_args),
        "exact": exact, "xargs_targets": xargs_targets, "find_dangerous": sorted(find_bad),
        "regexes": regexes, "safe_env": safe_env,
    }


def main(argv) -> int:
    check = "--check" in argv
    out = OUT
    if "--out" in argv:
        at = argv.index("--out")
        if at + 1 >= len(argv):
            print("--out needs a file", file=sys.stderr)
            return 64
        out = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
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
        with open(out) as f:
            if json.load(f) != table:
                print(f"{out} differs from what {binary} holds: re-run without --check")
                return 1
        print(f"{out}: matches {binary}")
        return 0
    with open(out, "w") as f:
        f.write(text)
    print(f"wrote {out} ({len(table['flag_commands'])} flag commands, "
          f"{len(table['any_args'])} any-argument commands, {len(table['regexes'])} regexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
