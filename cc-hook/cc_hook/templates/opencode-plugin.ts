// ctxcrl-hook-version: @@VERSION@@
// contextcrawler plugin for @@CLIENT@@, written by `cc-hook init --agent @@AGENT@@`.
// Do not edit: its SHA-256 is recorded and `cc-hook verify` reports a changed copy.
// @@CLIENT@@ filters after execution: the command is never changed, so @@CLIENT@@'s own
// `permission.bash` rules judge exactly what the model asked for.
// Before a `bash` call: cc-hook decode | cc-gate | cc-hook encode — a deny blocks the call.
// After it: cc-hook decode | cc-filter result | cc-hook encode — the compacted text replaces
// output.output, which is what the model receives. Whatever fails, @@CLIENT@@'s own result
// stays. (Plain JavaScript, valid TypeScript.)
import { spawnSync } from "node:child_process"
import { isAbsolute, join } from "node:path"

const PRE = @@PRE@@
const POST = @@POST@@

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

function folder(args, directory) {
  const base = directory ?? process.cwd()
  const workdir = args?.workdir
  if (typeof workdir !== "string" || workdir === "") return base
  return isAbsolute(workdir) ? workdir : join(base, workdir)
}

function off(input) {
  const disabled = process.env.CTXCRL_DISABLED
  return input?.tool !== "bash" || (disabled !== undefined && disabled !== "" && disabled !== "0")
}

export const ContextCrawler = async ({ directory } = {}) => ({
  "tool.execute.before": async (input, output) => {
    const args = output?.args
    if (off(input) || typeof args?.command !== "string" || args.command.trim() === "") return
    const cwd = folder(args, directory)
    const result = answer(PRE, { hook: "tool.execute.before", tool: "bash", directory: cwd, args },
                          cwd, 5000)
    if (result?.decision === "deny") {
      throw new Error(result.reason ?? "contextcrawler: denied by a deny rule")
    }
  },
  "tool.execute.after": async (input, output) => {
    const args = input?.args
    if (off(input) || typeof args?.command !== "string" || typeof output?.output !== "string") {
      return
    }
    const meta = output.metadata ?? {}
    const cwd = folder(args, directory)
    const event = {
      hook: "tool.execute.after", tool: "bash", directory: cwd, args,
      output: { output: output.output,
                metadata: { exit: meta.exit, truncated: meta.truncated, outputPath: meta.outputPath } },
    }
    const result = answer(POST, event, cwd, 10000)
    if (typeof result?.output === "string" && result.output !== "") output.output = result.output
  },
})
