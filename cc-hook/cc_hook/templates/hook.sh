#!/bin/sh
# ctxcrl-hook-version: @@VERSION@@
# contextcrawler hook for @@AGENT@@, written by `cc-hook init`. Do not edit: its SHA-256 is
# recorded in @@HASH_FILE_COMMENT@@
# and a changed copy refuses to rewrite anything (`cc-hook verify` reports it;
# `cc-hook init --agent @@AGENT@@` writes a fresh one).
# The agent's hook event comes on stdin; the answer, if any, goes to stdout. Whatever fails,
# the agent gets no answer and this script exits 0: it never blocks a command.
script=@@SCRIPT@@
no_answer() { cat >/dev/null 2>&1; @@NO_ANSWER@@exit 0; }
case ${CTXCRL_DISABLED:-} in ''|0) ;; *) no_answer ;; esac
@@ENV@@{ read -r expected <@@HASH_FILE@@; } 2>/dev/null || expected=
actual=$(@@HASHER@@ <"$script" 2>/dev/null) || actual=
if [ -z "$expected" ] || [ "${actual%% *}" != "$expected" ]; then
  echo "ctxcrl: $script does not match its recorded SHA-256; not rewriting (run: cc-hook verify)" >&2
  no_answer
fi
answer=$(@@HOOK@@ decode @@AGENT@@ | @@GATE@@ --agent @@AGENT@@ | @@REWRITE@@ | @@HOOK@@ encode @@AGENT@@)
[ -n "$answer" ] && printf '%s\n' "$answer" && exit 0
no_answer
