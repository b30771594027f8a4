#!/bin/sh
# ctxcrl-hook-version: @@VERSION@@
# contextcrawler hook for @@AGENT@@, written by `cc-hook init`. Do not edit: its SHA-256 is
# recorded in @@HASH_FILE_COMMENT@@
# and a changed copy refuses to rewrite anything (`cc-hook verify` reports it;
# `cc-hook init --agent @@AGENT@@` writes a fresh one).
# The agent's hook event comes on stdin; the answer, if any, goes to stdout. Whatever fails,
# the agent gets no answer and this script exits 0: it never blocks a command.
# The stages: cc-hook decode | cc-gate | cc-rewrite | cc-hook encode (before a command runs),
# or cc-hook decode | cc-filter result | cc-hook encode (after it ran: `post`). `decode` first
# compares this file with its recorded SHA-256 (CTXCRL_HOOK_SCRIPT) and, on a mismatch,
# answers nothing and says so on stderr. When `path` is set, each stage is started as
# `python -I -S` (no `site`: faster) with our packages' folders on sys.path and the cyclic
# garbage collector off (a stage lives milliseconds). cc-rewrite runs with
# CTXCRL_QUIET_CONFIG=1: a malformed config.toml is reported once, by cc-gate.
# CTXCRL_HOME and CTXCRL_FILTER_BIN are pinned to what init found: the agent's environment
# (which a project's settings can set) does not choose where trust comes from.
script=@@SCRIPT@@
no_answer() { @@NO_ANSWER_BODY@@exit 0; }
case ${CTXCRL_DISABLED:-} in ''|0) ;; *) no_answer ;; esac
@@ENV@@@@ANSWER@@
[ -n "$answer" ] && printf '%s\n' "$answer" && exit 0
no_answer
