// ctxcrl-hook-version: @@VERSION@@
// contextcrawler plugin for OpenCode, written by `cc-hook init --agent opencode`.
// Do not edit: its SHA-256 is recorded and `cc-hook verify` reports a changed copy.
// Before every `bash` tool call, the command goes through `cc-gate | cc-rewrite`: a denied
// command is blocked, a rewritten one (`cc-filter run …`) replaces the original. Whatever
// fails, the original command runs unchanged. (Plain JavaScript, valid TypeScript.)
import { spawnSync } from "node:child_process"

const PIPELINE = @@PIPELINE@@

export const ContextCrawler = async ({ directory } = {}) => ({
  "tool.execute.before": async (input, output) => {
    if (input?.tool !== "bash" || process.env.CTXCRL_DISABLED === "1") return
    const command = output?.args?.command
    if (typeof command !== "string" || command.trim() === "") return
    const cwd = output.args.workdir ?? directory ?? process.cwd()
    const record = JSON.stringify({ agent: "opencode", cwd, command, input: output.args })
    let result
    try {
      const run = spawnSync("/bin/sh", ["-c", PIPELINE], {
        input: record + "\n", encoding: "utf8", timeout: 5000, cwd,
      })
      const line = (run.stdout ?? "").split("\n").find((l) => l.trim().startsWith("{"))
      result = line ? JSON.parse(line) : undefined
    } catch {
      return
    }
    if (!result) return
    if (result.decision === "deny") {
      throw new Error(`contextcrawler: ${result.reason ?? "denied by a deny rule"}`)
    }
    if (typeof result.rewritten === "string" && result.rewritten.trim() !== "") {
      output.args.command = result.rewritten
    }
  },
})
