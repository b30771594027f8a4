// ctxcrl-hook-version: @@VERSION@@
// contextcrawler plugin for @@CLIENT@@, written by `cc-hook init --agent @@AGENT@@`.
// Do not edit: its SHA-256 is recorded and `cc-hook verify` reports a changed copy.
// @@CLIENT@@ filters after execution: the command is never changed, so @@CLIENT@@'s own
// approval and plan-mode guard judge exactly what the model asked for.
// beforeTool, each command of a `run_commands` call: cc-hook decode | cc-gate | cc-hook encode
// — a deny skips the call (the model gets the reason).
// afterTool, each command's entry: cc-hook decode | cc-filter result | cc-hook encode — the
// compacted text (after Cline's exit-code line) replaces the entry's `result`, which is what
// the model receives. Whatever fails, @@CLIENT@@'s own result stays. @@CLIENT@@ waits 3 s for a
// plugin's hook (and goes on without its answer): each hook spends at most BUDGET_MS.
import { spawnSync } from "node:child_process"
import { relative, isAbsolute } from "node:path"

const PRE = @@PRE@@
const POST = @@POST@@
const TOOL = "run_commands"
const BUDGET_MS = 2500
let root

function answer(pipeline, event, cwd, timeout) {
  try {
    const run = spawnSync("/bin/sh", ["-c", pipeline], {
      input: JSON.stringify(event) + "\n", encoding: "utf8", timeout, cwd,
      maxBuffer: 64 * 1024 * 1024,
    })
    const line = (run.stdout ?? "").split("\n").find((l) => l.trim().startsWith("{"))
    return line ? JSON.parse(line) : undefined
  } catch {
    return undefined
  }
}

function off(tool) {
  const disabled = process.env.CTXCRL_DISABLED
  return tool !== TOOL || (disabled !== undefined && disabled !== "" && disabled !== "0")
}

// Where Cline runs the commands: this process's folder inside the workspace, else its root.
function folder() {
  const here = process.cwd()
  if (typeof root !== "string" || root === "") return here
  const rel = relative(root, here)
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel)) ? here : root
}

// The commands of a call, as Cline reads its input (a string, a list, {commands}, {command}).
function commands(input) {
  if (typeof input === "string") return [input]
  if (Array.isArray(input)) return input
  if (input && typeof input === "object") {
    if ("commands" in input) return Array.isArray(input.commands) ? input.commands : [input.commands]
    if ("command" in input) return "args" in input ? [input] : [input.command]
    if ("cmd" in input) return [input.cmd]
  }
  return []
}

// A command as one line (Cline's own spelling of a {command, args} entry).
function spelled(command) {
  if (typeof command === "string") return command
  if (!command || typeof command.command !== "string") return undefined
  const args = Array.isArray(command.args) ? command.args : []
  if (args.length === 0) return command.command
  return `${command.command} ${args.map((a) => (/[\s"]/u.test(a) ? JSON.stringify(a) : a)).join(" ")}`
}

// The `query` Cline shows for a command: its first 200 characters.
function shown(command) {
  if (command.length <= 200) return command
  return `${command.slice(0, 200)} ... [command truncated: ${command.length - 200} more chars; full command is in the tool call input]`
}

export default {
  name: "contextcrawler",
  manifest: { capabilities: ["hooks"] },
  setup(_api, ctx) {
    root = ctx?.workspaceInfo?.rootPath
  },
  hooks: {
    beforeTool(ctx) {
      if (off(ctx?.tool?.name)) return undefined
      const cwd = folder()
      const end = Date.now() + BUDGET_MS
      for (const command of commands(ctx.input)) {
        const text = spelled(command)
        if (typeof text !== "string" || text.trim() === "") continue
        const left = end - Date.now()
        if (left < 50) break
        const result = answer(PRE, { hook: "beforeTool", tool: TOOL, cwd, command: text }, cwd, left)
        if (result?.decision === "deny") {
          return { skip: true, reason: result.reason ?? "contextcrawler: denied by a deny rule" }
        }
      }
      return undefined
    },
    afterTool(ctx) {
      const output = ctx?.result?.output
      if (off(ctx?.tool?.name) || !Array.isArray(output)) return undefined
      const list = commands(ctx.input)
      if (list.length !== output.length) return undefined
      const cwd = folder()
      const end = Date.now() + BUDGET_MS
      let changed = false
      const entries = output.map((entry, i) => {
        const command = list[i]
        const left = end - Date.now()
        if (typeof command !== "string" || typeof entry?.result !== "string" ||
            entry.query !== shown(command) || left < 50) return entry
        const event = { hook: "afterTool", tool: TOOL, cwd, command, result: entry.result,
                        success: entry.success }
        const result = answer(POST, event, cwd, left)
        if (typeof result?.result !== "string" || result.result === "") return entry
        changed = true
        return { ...entry, result: result.result }
      })
      return changed ? { result: { ...ctx.result, output: entries } } : undefined
    },
  },
}
