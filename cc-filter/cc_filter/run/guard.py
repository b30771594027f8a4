"""The runner's safety rules, in one place (ARCHITECTURE §6.2 rules 2-8).

`OutputGuard` takes a command's combined raw output as bytes, in whatever chunks they arrive,
turns it into lines for the filter as it goes, and at the end decides what the agent sees:

- raw output and filtered output both go to `SpillBuffer`s (memory, then a temp file), so
  memory stays bounded; a single line longer than `MAX_LINE` bytes reaches the filter cut, with
  a `… [N more bytes]` marker (the raw bytes stay in the raw buffer and the tee file);
- `\\r` progress redraws are resolved before the filter sees a line (`50%\\r100%` → `100%`);
- never worse: when the filtered output is not smaller than the raw one (in tokens), the raw
  output is printed unchanged;
- never empty: non-empty raw output never becomes empty output — the filter's `on_empty`
  confirmation (successful runs only), else the raw output;
- failures visible: on a non-zero exit, when the filtered text does not itself show the failure,
  the last lines of raw output are added under a one-line header;
- nothing lost: when output was dropped (an omission marker, a cut line, `filter.dropped`) or a
  failed command printed more than `min_size` bytes, the raw output goes to the tee directory
  and the last line names the file;
- a filter that raises: the raw output is printed, plus one warning line for stderr.

A long run is not kept for the end: given a `sink` (the runner's stdout), once the raw output
passes `STREAM_AFTER` bytes the never-worse rule is applied to what came so far and the winner
is written from then on, as it comes — the filtered lines (the end then only adds the failure
tail, the tee hint or a warning), or, when the filter is not making the output smaller, the raw
output (the filter is dropped). So a never-ending command still shows something, and
`cc-filter run … | head -1` gets its line and can end. When the sink reports that nobody reads
any more, `reader_gone` is set and nothing more is written.

A filter that sets `redacts = True` (env/printenv masks secrets) is the one exception: its raw
output must never reach the agent or the disk, so for it there is no raw fallback (never worse,
never empty, filter errors), no raw failure tail and no tee file. What it withholds is
recoverable by re-running the command with `CTXCRL_DISABLED=1`.

`cc-filter run`, `cc-filter <name>` and the fixture harness all go through this class, so
tests exercise exactly what users get. Imports nothing heavy.
"""
from cc_filter.kit import lines as lines_mod
from cc_filter.kit.spill import SpillBuffer
from ctxcrl.spool import estimate_tokens

#: Longest line (in bytes) handed to a filter; the rest of a longer line is cut.
MAX_LINE = 256 * 1024
#: Raw output (bytes) after which a run's answer is written as it comes (see the docstring).
STREAM_AFTER = 1 << 20
#: Raw lines shown under the header when a failure would otherwise be invisible.
TAIL_LINES = 10
_TAIL_LINE_CHARS = 500
#: The length of a typical `[full output: ~/.local/share/ctxcrl/tee/<time>_<command>.log]`.
HINT_CHARS = 70
_FAILURE_WORDS = (
    "error", "fail", "fatal", "exception", "traceback", "panic", "denied", "not found",
    "no such", "cannot", "can't", "unable", "refused", "rejected", "conflict", "abort",
    "invalid", "exit code", "exit status", "timed out", "timeout", "killed", "segmentation",
    "not a ", "usage:", "unknown", "missing", "broken", "crash", "segfault", "core dumped",
)


def _has_omission_marker(text: str) -> bool:
    """Does a line of `text` look like a marker of `cc_filter.kit.lines` (`... (N lines omitted)`,
    `+N more`, `… [N more bytes]`)? Substring searches only: this runs on every chunk."""
    padded = "\n" + text + "\n"
    if " omitted)\n" in padded or " truncated)\n" in padded or " more bytes]\n" in padded:
        return True
    marker = lines_mod.is_omission_marker
    at = padded.find("\n+")
    while at >= 0:
        end = padded.find("\n", at + 1)
        if padded[at + 2:at + 3].isdigit() and marker(padded[at + 1:end]):
            return True
        at = padded.find("\n+", end)
    return False


class Outcome:
    """What the guard decided: the bytes to print and the figures to track."""

    __slots__ = ("mode", "exit_code", "raw_chars", "output_chars", "tee_path", "reasons",
                 "warning", "_raw", "_out", "_tail_text", "_hint", "_skip")

    def __init__(self):
        self.mode = "filtered"  # filtered | raw | filter-error
        self.exit_code = 0
        self.raw_chars = 0
        self.output_chars = 0
        self.tee_path: str | None = None
        self.reasons: list[str] = []
        self.warning: str | None = None
        self._raw = None
        self._out = None
        self._tail_text = ""
        self._hint = ""
        self._skip = 0  # bytes of the answer already written while the command ran

    def chunks(self):
        """The bytes to print (what was not written while the command ran), in chunks."""
        skip = self._skip
        for chunk in (self._raw if self.mode != "filtered" else self._out).chunks():
            if skip:
                if len(chunk) <= skip:
                    skip -= len(chunk)
                    continue
                chunk, skip = chunk[skip:], 0
            yield chunk
        if self.mode != "filtered":
            return
        if self._tail_text:
            yield self._tail_text.encode("utf-8", "replace")
        if self._hint:
            yield self._hint.encode("utf-8", "replace")

    def text(self) -> str:
        return b"".join(self.chunks()).decode("utf-8", "replace")

    def close(self) -> None:
        for buf in (self._raw, self._out):
            if buf is not None:
                buf.close()


class OutputGuard:
    def __init__(self, filter_obj, *, argv: list[str] | None = None, tee_policy=None,
                 filter_name: str | None = None):
        self.filter = filter_obj
        #: its raw output must never be shown nor kept (see the module docstring)
        self.redacts = bool(getattr(filter_obj, "redacts", False))
        self.filter_name = filter_name or getattr(filter_obj, "name", "") or "filter"
        self.argv = argv if argv is not None else list(getattr(filter_obj, "argv", []) or [])
        self.tee_policy = tee_policy
        self.raw = SpillBuffer()
        self.out = SpillBuffer()
        self.raw_chars = 0
        self.out_chars = 0
        self.raw_nonblank = False
        self.out_nonblank = False
        self.dropped = False
        self.error: BaseException | None = None
        self._pending = b""
        self._skipping = False
        self._skipped = 0
        self._tail: list[str] = []
        feed_lines = getattr(filter_obj, "feed_lines", None)
        self._feed_lines = feed_lines if feed_lines is not None else self._feed_one_by_one
        self._feed_text = getattr(filter_obj, "feed_text", None)
        #: write(bytes) -> bool (False: nobody reads any more); None: answer only at the end
        self.sink = None
        self.streaming: str | None = None  # "filtered" | "raw" once a long run streams
        self.streamed = 0  # bytes of the answer already written to the sink
        self.reader_gone = False
        #: what reads the answer after the pipe (consumer.parse: (("tail", 20),)), or None
        self.consumer = None

    # -- input --------------------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Take the next chunk of raw output."""
        if not data:
            return
        if self.streaming is None and self.sink is not None and len(self.raw) >= STREAM_AFTER:
            self._start_streaming()
        self.raw.write(data)
        if self.streaming == "raw":
            self.raw_chars += len(data)
            if not self.raw_nonblank and not data.isspace():
                self.raw_nonblank = True
            self._write(data)
            return
        if self._skipping:
            nl = data.find(b"\n")
            if nl < 0:
                self._skipped += len(data)
                return
            self._skipped += nl
            self._end_long_line()
            data = data[nl + 1:]
            if not data:
                return
        nl = data.rfind(b"\n")
        if nl < 0:
            self._hold(self._pending + data if self._pending else data)
            return
        if self._pending:
            data = self._pending + data
            nl += len(self._pending)
            self._pending = b""
        self._take_block(data, nl)
        if nl + 1 < len(data):
            self._hold(data[nl + 1:])

    def _hold(self, data: bytes) -> None:
        if len(data) > MAX_LINE:  # `data` holds no newline: one unfinished, over-long line
            self._pending = data[:MAX_LINE]
            self._skipping = True
            self._skipped = len(data) - MAX_LINE
        else:
            self._pending = data

    def _end_long_line(self) -> None:
        head = self._pending
        self._pending = b""
        self._skipping = False
        line, chars = self._cut(head, self._skipped)
        self._take_lines([line], chars + 1)
        self._skipped = 0

    def _cut(self, head: bytes, skipped: int) -> tuple[str, int]:
        """An over-long line as the filter sees it, and its length in raw characters."""
        self.dropped = True
        text = head.decode("utf-8", "replace")
        return f"{text} … [{skipped} more bytes]", len(text) + skipped

    def _take_block(self, data: bytes, end: int) -> None:
        """The complete lines of data[:end] (data[end] is their last newline)."""
        if end > MAX_LINE and lines_mod.has_line_longer_than(data, MAX_LINE, end):
            block = data[:end]
            lines = []
            counted = 0
            for part in block.split(b"\n"):
                if len(part) > MAX_LINE:
                    line, chars = self._cut(part[:MAX_LINE], len(part) - MAX_LINE)
                    lines.append(line)
                    counted += chars + 1
                else:
                    text = part.decode("utf-8", "replace")
                    lines.append(text)
                    counted += len(text) + 1
            self._take_lines(lines, counted)
            return
        text = str(memoryview(data)[:end], "utf-8", "replace")  # no copy of the bytes
        self._take_text(text, len(text) + 1)

    def _take_lines(self, lines: list[str], chars: int) -> None:
        self._take_text("\n".join(lines), chars)

    def _take_text(self, text: str, chars: int) -> None:
        """Complete lines joined by newlines (no newline at the end)."""
        self.raw_chars += chars
        if not self.raw_nonblank and text and not text.isspace():
            self.raw_nonblank = True
        if "\r" in text:
            redraw = lines_mod.resolve_redraws
            text = "\n".join([redraw(line) if "\r" in line else line
                               for line in text.split("\n")])
        tail = self._tail
        cut = len(text)
        for _ in range(TAIL_LINES):
            cut = text.rfind("\n", 0, cut)
            if cut < 0:
                break
        tail.extend(text[cut + 1:].split("\n"))
        if len(tail) > 4 * TAIL_LINES:
            del tail[:-TAIL_LINES]
        if self.filter is not None and self.error is None:
            try:
                if self._feed_text is not None:
                    produced = self._feed_text(text)
                else:
                    produced = self._feed_lines(text.split("\n"))
            except Exception as exc:  # the filter's bug must not cost the user their output
                self.error = exc
                return
            if produced:
                self._emit(produced)

    def _feed_one_by_one(self, new: list[str]) -> list[str]:
        produced: list[str] = []
        feed = self.filter.feed
        for line in new:
            result = feed(line)
            if result is not None:
                produced.extend(result)
        return produced

    def _emit(self, produced) -> None:
        if not isinstance(produced, list):
            produced = list(produced)
            if not produced:
                return
        text = "\n".join(produced)
        self.out_chars += len(text) + 1
        if not self.out_nonblank and text and not text.isspace():
            self.out_nonblank = True
        if not self.dropped and _has_omission_marker(text):
            self.dropped = True
        data = (text + "\n").encode("utf-8", "replace")
        self.out.write(data)
        if self.streaming == "filtered":
            self._write(data)

    # -- a long run: written as it comes ------------------------------------------------
    def _start_streaming(self) -> None:
        """Never worse, decided on the output so far: the filtered lines when they are
        smaller (always, for a redacting filter), else the raw output from the start."""
        redacts = self.redacts
        if self.filter is None or self.error is not None:
            if redacts:
                self.streaming = "off"  # its raw output must never be shown
                return
            self.streaming = "raw"
        elif redacts or (estimate_tokens(self.out_chars) < estimate_tokens(len(self.raw))
                         and self._head_fits_so_far()):
            # raw bytes, not raw_chars: an unfinished (maybe huge) line counts too
            self.streaming = "filtered"
        else:
            self.streaming = "raw"
        if self.streaming == "raw":
            # the raw bytes not yet counted (an unfinished line) and the filter are done with
            self.raw_chars += len(self._pending) + self._skipped
            self._pending, self._skipping, self._skipped = b"", False, 0
        for chunk in (self.raw if self.streaming == "raw" else self.out).chunks():
            self._write(chunk)
        if self.streaming == "filtered":
            # From here on the raw output only feeds the tee file, which keeps head and tail.
            from cc_filter.kit.spill import HeadTailBuffer

            keep = self.tee_policy.max_file_size if self.tee_policy is not None else 0
            self.raw = HeadTailBuffer(self.raw, keep)

    def _head_fits_so_far(self) -> bool:
        """With a `head` after the pipe: do the answer's lines so far already fill its cut,
        keeping the raw cut's facts in fewer tokens? (Else the raw output streams.)"""
        if not self.consumer:
            return True
        from cc_filter.run import consumer

        stages = self.consumer
        ours = consumer.apply_buffer(stages, self.out)
        if ours.count(b"\n") < stages[0][1]:
            return False  # the cut is not written yet: its last lines are unknown
        raw = consumer.apply_buffer(stages, self.raw).decode("utf-8", "replace")
        ours_text = ours.decode("utf-8", "replace")
        return (not consumer.missing_facts(raw, ours_text, self.filter_name == "grep")
                and estimate_tokens(len(ours_text)) < estimate_tokens(len(raw)))

    def _write(self, data: bytes) -> None:
        if self.reader_gone:
            return
        if self.sink(data):
            self.streamed += len(data)
        else:
            self.reader_gone = True

    # -- the decision -------------------------------------------------------------------
    def finish(self, exit_code: int) -> Outcome:
        outcome = self._finish(exit_code)
        if self.consumer:
            self.fit_consumer(outcome)
        return outcome

    def _finish(self, exit_code: int) -> Outcome:
        if self.streaming == "raw":
            return self._decide_raw_streamed(exit_code)
        if self.streaming == "filtered" and not self.streamed:
            self.streaming = None  # nothing written yet: the end decides everything, as usual
        if self._skipping:
            self._end_long_line()
            self.raw_chars -= 1  # the last line had no newline
        elif self._pending:
            pending, self._pending = self._pending, b""
            text = pending.decode("utf-8", "replace")
            self._take_text(text, len(text))
        if self.filter is not None and self.error is None:
            try:
                produced = list(self.filter.finish(exit_code) or ())
            except Exception as exc:
                self.error = exc
            else:
                if produced:
                    self._emit(produced)
        if getattr(self.filter, "dropped", False):
            self.dropped = True
        return self._decide(exit_code)

    # -- after the pipe (cc_filter.run.consumer) ----------------------------------------------
    def fit_consumer(self, o: Outcome) -> None:
        """The answer as its consumer (`| tail -20`) will cut it: laid out for a tail, then
        kept only when the cut shows every fact of the raw output's cut and is smaller; else
        the raw output goes through. The tracked figures become the two cuts' sizes."""
        from cc_filter.run import consumer

        stages = self.consumer
        raw_cut = consumer.apply_buffer(stages, self.raw)
        raw_chars = len(raw_cut.decode("utf-8", "replace"))
        if o.mode != "filtered":
            o.raw_chars = o.output_chars = raw_chars
            return
        text = o.text()
        if o._skip or self.redacts:  # already written, or must never be raw: measured only
            o.raw_chars = raw_chars
            o.output_chars = len(consumer.apply(stages, text.encode("utf-8", "replace"))
                                 .decode("utf-8", "replace"))
            return
        raw_text = raw_cut.decode("utf-8", "replace")
        every_line = self.filter_name == "grep"
        o.raw_chars = raw_chars
        if stages[0][0] == "tail":
            fitted = consumer.fit_tail(text, stages, raw_text, every_line)
            why = "consumer-facts"
        else:
            ours_cut = consumer.apply(stages, text.encode("utf-8", "replace")).decode(
                "utf-8", "replace")
            missing = consumer.missing_facts(raw_text, ours_cut, every_line)
            fitted = None if missing else (text, ours_cut)
            why = "consumer-facts" if missing else "consumer-never-worse"
            if fitted and estimate_tokens(len(ours_cut)) >= estimate_tokens(raw_chars):
                fitted = None
        if fitted is None:
            o.mode = "raw"
            o.reasons.append(why)
            o.output_chars = raw_chars
            return
        text, ours_cut = fitted
        data = text.encode("utf-8", "replace")
        out = SpillBuffer()
        out.write(data)
        o._out = out
        self.out.close()
        self.out = out
        o._tail_text = o._hint = ""
        o.reasons.append("consumer")
        o.output_chars = len(ours_cut)

    def _decide(self, exit_code: int) -> Outcome:
        o = Outcome()
        o.exit_code = exit_code
        o.raw_chars = self.raw_chars
        o._raw, o._out = self.raw, self.out
        redacts = self.redacts
        if self.streaming == "filtered":
            return self._decide_streamed(o, exit_code)
        if self.error is not None and redacts:
            return self._withheld(o, "filter-error")
        if self.error is not None:
            o.mode = "filter-error"
            o.reasons.append("filter-error")
            o.warning = f"ctxcrl: filter {self._failed()}; showing the raw output"
            o.output_chars = self.raw_chars
            return o
        out_chars = self.out_chars
        if not self.out_nonblank and self.raw_nonblank:
            on_empty = getattr(self.filter, "on_empty", None)
            if exit_code == 0 and on_empty:
                self.out = SpillBuffer()
                o._out = self.out
                self.out.write((on_empty + "\n").encode("utf-8", "replace"))
                out_chars = len(on_empty) + 1
                o.reasons.append("on-empty")
            elif redacts:
                return self._withheld(o, "never-empty")
            elif exit_code == 0:
                return self._raw_outcome(o, "never-empty")
        tail_text = self._tail_if_hidden(o, exit_code)
        if (not redacts and estimate_tokens(out_chars + len(tail_text) + self._hint_chars(exit_code))
                >= estimate_tokens(self.raw_chars)):
            return self._raw_outcome(o, "never-worse")
        return self._add_tail_and_tee(o, exit_code, out_chars, tail_text)

    def _hint_chars(self, exit_code: int) -> int:
        """About what the tee hint will add (never worse counts it: a marker and a hint that
        cost more than the lines they stand for lose to the raw output)."""
        policy = self.tee_policy
        if policy is None or not policy.wants(dropped=self.dropped, failed=exit_code != 0,
                                              raw_size=len(self.raw), changed=True):
            return 0
        return HINT_CHARS

    def _tail_if_hidden(self, o: Outcome, exit_code: int) -> str:
        """The failure tail, when the command failed and the filtered text does not show it."""
        if exit_code != 0 and self.raw_nonblank and not self.redacts and not self._shows_failure():
            o.reasons.append("failure-tail")
            return self._failure_tail(exit_code)
        return ""

    def _add_tail_and_tee(self, o: Outcome, exit_code: int, out_chars: int,
                          tail_text: str) -> Outcome:
        o._tail_text = tail_text
        if not self.redacts:
            self._tee(o, exit_code)
        o.output_chars = out_chars + len(tail_text) + len(o._hint)
        return o

    def _tee(self, o: Outcome, exit_code: int) -> None:
        """The tee file and its hint (rule 7), and `tee/last.raw` for every filtered answer:
        the agent was shown less than the raw output, so `cc-filter raw` can give it back."""
        policy = self.tee_policy
        if policy is None:
            return
        from cc_filter.run import tee

        if policy.wants(dropped=self.dropped, failed=exit_code != 0,
                        raw_size=len(self.raw), changed=True):
            path = tee.write(self.raw, self.argv or [self.filter_name], policy)
            if path is not None:
                o.tee_path = path
                o._hint = tee.hint(path, tee.cut_bytes(self.raw, policy)) + "\n"
        tee.write_last(self.raw, policy, same_as=o.tee_path)

    def _failed(self) -> str:
        exc = self.error
        detail = str(exc).splitlines()[0][:200] if str(exc) else ""
        return (f"{self.filter_name} failed "
                f"({type(exc).__name__}{': ' + detail if detail else ''})")

    def _decide_streamed(self, o: Outcome, exit_code: int) -> Outcome:
        """Filtered output was written while the command ran: it stays; the end can only add
        the failure tail, the tee hint, and a warning if the filter broke on the way (what it
        did not show is then in the tee file)."""
        o._skip = self.streamed
        o.reasons.append("streamed")
        if self.error is not None:
            self.dropped = True  # what the filter did not get to show
            o.reasons.append("filter-error")
        self._add_tail_and_tee(o, exit_code, self.out_chars, self._tail_if_hidden(o, exit_code))
        if self.error is not None:
            o.warning = (f"ctxcrl: filter {self._failed()} after part of its output was shown"
                         + ("; the full output is in the tee file" if o.tee_path else ""))
        return o

    def _decide_raw_streamed(self, exit_code: int) -> Outcome:
        """The raw output was written while the command ran (the filter did not make it
        smaller): it is the whole answer."""
        self.raw_chars += len(self._pending)
        self._pending = b""
        o = Outcome()
        o.exit_code = exit_code
        o.mode = "raw"
        o.reasons += ["streamed", "never-worse"]
        o.raw_chars = o.output_chars = self.raw_chars
        o._raw, o._out = self.raw, self.out
        o._skip = self.streamed
        if self.error is not None:
            o.reasons.append("filter-error")
            o.warning = f"ctxcrl: filter {self._failed()}; showing the raw output"
        return o

    def _withheld(self, o: Outcome, reason: str) -> Outcome:
        """A redacting filter could not give a safe answer: say so instead of showing raw."""
        note = (f"[{self.filter_name}: output withheld because it may contain secrets; "
                "run with CTXCRL_DISABLED=1 to see it unfiltered]\n")
        self.out = SpillBuffer()
        self.out.write(note.encode("utf-8"))
        o._out = self.out
        o.reasons.append(f"withheld:{reason}")
        o.output_chars = len(note)
        return o

    def _raw_outcome(self, o: Outcome, reason: str) -> Outcome:
        o.mode = "raw"
        o.reasons.append(reason)
        o.output_chars = self.raw_chars
        return o

    def _output_sample(self) -> str:
        size = len(self.out)
        if size <= 1 << 20:
            data = self.out.getvalue()
        else:
            part = 1 << 18
            data = self.out.read_range(0, part) + b"\n" + self.out.read_range(size - part, part)
        return data.decode("utf-8", "replace")

    def _shows_failure(self) -> bool:
        """Does the filtered text itself show that the command failed?"""
        if not self.out_nonblank:
            return False
        text = self._output_sample()
        last = [lines_mod.strip_ansi(line).strip() for line in self._tail if line.strip()][-1:]
        if last and last[0] in text:
            return True  # the command's own last words are there
        lower = text.lower()
        return any(word in lower for word in _FAILURE_WORDS)

    def _failure_tail(self, exit_code: int) -> str:
        shown = [lines_mod.strip_ansi(line) for line in self._tail]
        while shown and not shown[-1].strip():
            shown.pop()
        shown = shown[-TAIL_LINES:]
        shown = [line if len(line) <= _TAIL_LINE_CHARS else line[:_TAIL_LINE_CHARS] + " …"
                 for line in shown]
        header = f"[exit code {exit_code}; last {len(shown)} lines of output:]"
        return "\n".join([header] + shown) + "\n"


def apply(filter_obj, raw: bytes, exit_code: int, *, argv: list[str] | None = None,
          tee_policy=None, chunk_size: int = 65536) -> Outcome:
    """Run `raw` through `filter_obj` under every safety rule, as `cc-filter run` would."""
    guard = OutputGuard(filter_obj, argv=argv, tee_policy=tee_policy)
    for start in range(0, len(raw), chunk_size):
        guard.feed(raw[start:start + chunk_size])
    return guard.finish(exit_code)
