// ctxcrl-hook-version: @@VERSION@@
// contextcrawler extension for @@CLIENT@@, written by `cc-hook init --agent @@AGENT@@`.
// Do not edit: its SHA-256 is recorded and `cc-hook verify` reports a changed copy.
// @@CLIENT@@ filters after execution: the command is never changed.
// Before a `bash` call (pi.on("tool_call")): cc-hook decode | cc-gate | cc-hook encode — a
// deny blocks the call ({block: true, reason}: the model reads the reason).
// After it (pi.on("tool_result")): cc-hook decode | cc-filter result | cc-hook encode — the
// compacted text replaces the result's content, which is what the model receives (a failure
// keeps pi's "Command exited with code N" line and its isError). Whatever fails, pi's own
// result stays and the call is never blocked. (Plain JavaScript, valid TypeScript.)
import { spawn } from "node:child_process"

const PRE = @@PRE@@
const POST = @@POST@@

function answer(pipeline, event, cwd, timeout) {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    const finish = (value) => {
      if (!done) {
        done = true
        clearTimeout(timer)
        resolve(value)
      }
    }
    let child
    try {
      child = spawn("/bin/sh", ["-c", pipeline], { cwd, stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return resolve(undefined)
    }
    const timer = setTimeout(() => {
      try { child.kill("SIGKILL") } catch {}
      finish(undefined)
    }, timeout)
    child.on("error", () => finish(undefined))
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk) => { out += chunk })
    child.on("close", () => {
      try {
        const line = out.split("\n").find((l) => l.trim().startsWith("{"))
        finish(line ? JSON.parse(line) : undefined)
      } catch {
        finish(undefined)
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event) + "\n")
  })
}

function off(event) {
  const disabled = process.env.CTXCRL_DISABLED
  return event?.toolName !== "bash" || typeof event?.input?.command !== "string" ||
    event.input.command.trim() === "" ||
    (disabled !== undefined && disabled !== "" && disabled !== "0")
}

function where(ctx) {
  return typeof ctx?.cwd === "string" && ctx.cwd !== "" ? ctx.cwd : process.cwd()
}

export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    try {
      if (off(event)) return undefined
      const cwd = where(ctx)
      const result = await answer(PRE, { type: "tool_call", toolName: "bash",
                                         toolCallId: event.toolCallId, input: event.input, cwd },
                                  cwd, 5000)
      if (result?.block === true) {
        return { block: true, reason: typeof result.reason === "string" ? result.reason
                                                                        : "contextcrawler: denied by a deny rule" }
      }
    } catch {}
    return undefined
  })
  pi.on("tool_result", async (event, ctx) => {
    try {
      if (off(event) || !Array.isArray(event.content)) return undefined
      const cwd = where(ctx)
      const result = await answer(POST, { type: "tool_result", toolName: "bash",
                                          toolCallId: event.toolCallId, input: event.input,
                                          content: event.content, details: event.details,
                                          isError: event.isError, cwd }, cwd, 10000)
      const content = result?.content
      if (Array.isArray(content) && content.length > 0 &&
          content.every((part) => part?.type === "text" && typeof part.text === "string")) {
        return { content }
      }
    } catch {}
    return undefined
  })
}
