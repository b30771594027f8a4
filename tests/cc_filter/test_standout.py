"""The lines that stand out (cc_filter/kit/standout.py): telling, rare, and when neither counts."""
from cc_filter.kit import standout
from cc_filter.kit.standout import Standout, looks_like_log, shape, telling


def test_a_shape_drops_digits_and_hex_ids():
    assert shape("2026-05-01T10:00:01Z DEBUG done trace=ab12 took=5ms") == \
        shape("2026-05-02T11:59:31Z DEBUG done trace=4be1c6 took=512ms")
    assert shape("12:00:01 INFO GET /a 200 512") == shape("12:09:59 INFO GET /a 200 77")
    assert shape("10:00:01 INFO GET /a") != shape("10:00:01 WARN GET /a")


def test_telling_words_and_statuses():
    assert telling("WARN upstream") and telling("Traceback (most recent call last):")
    assert telling('"GET /x HTTP/1.1" 503 -') and telling("status=404 path=/x")
    assert not telling('"GET /x HTTP/1.1" 200 -') and not telling("took 503 ms")


def test_looks_like_log():
    log = [f"2026-05-01 10:00:{n:02d} INFO step {n}" for n in range(60)]
    code = [f"def f{n}(x):" for n in range(60)]
    assert looks_like_log(log) and not looks_like_log(code) and not looks_like_log(log[:3])


def _run(lines, **kw):
    picker = Standout(**kw)
    for i, line in enumerate(lines, 1):
        picker.add(i, line)
    return picker.picks()


def test_a_telling_line_with_its_neighbours_and_a_rare_line():
    lines = [f"10:00:{n % 60:02d} INFO step {n} ok" for n in range(1, 301)]
    lines[99] = "10:01:40 ERROR step 100 failed"
    lines[199] = "10:03:20 INFO cache rebuilt from snapshot"
    picks = [i for i, _ in _run(lines, limit=5, neighbours=1)]
    assert picks == [99, 100, 101, 200]


def test_when_most_lines_tell_none_does_and_many_rare_lines_are_not_rare():
    every = [f"error: thing {n}" for n in range(200)]
    assert _run(every, neighbours=0) == []
    distinct = [f"word{chr(97 + n % 26)}{chr(97 + n // 26 % 26)} happened" for n in range(300)]
    assert len({shape(line) for line in distinct}) > standout.RARE_LIMIT
    assert _run(distinct, neighbours=0) == []


def test_blocks_pick_what_lines_one_by_one_pick():
    lines = [f"10:00:{n % 60:02d} INFO step {n} ok" for n in range(1, 401)]
    lines[99] = "10:01:40 ERROR step 100 failed"
    lines[100] = "10:01:41 WARN step 101 retried"
    lines[299] = "10:05:00 INFO cache rebuilt from snapshot"
    lines[300] = "10:05:01 ERROR disk full"
    one = _run(lines, limit=5, neighbours=1)
    for size in (1, 2, 7, 100, 400):
        picker = Standout(limit=5, neighbours=1)
        for start in range(0, len(lines), size):
            picker.add_block(start + 1, lines[start:start + size])
        assert picker.picks() == one, size


def test_blocks_tell_as_the_whole_line_regex_does_on_tricky_lines():
    """add_block matches TELLING only where a telling word was found; the lines it tells are
    those `add` (TELLING searched over each whole line) tells."""
    tricky = ["terror alert ignored", "xhttp/1.1 503 upstream", "GET / HTTP/1.1\" 404 12",
              "http_status=502 route=/a", "status_code: 500", "http_status_code=500 no",
              "code=200 status=404", "errors=0 ok", "ERR_CONNECTION_RESET", "warned", "Warning!",
              "timed out after 3s", "timeouts=4", "İstanbul error here", "fails", "unfailing",
              "panicked at x", "denied_by=rule", "CRIT disk", "aborted", "coder 500"]
    lines = [f"10:00:{n % 60:02d} INFO step {n} ok" for n in range(400)]
    for at, line in enumerate(tricky):
        lines[at * 17 + 3] = line
    one = _run(lines, limit=50, neighbours=0)
    picker = Standout(limit=50, neighbours=0)
    for start in range(0, len(lines), 64):
        picker.add_block(start + 1, lines[start:start + 64])
    assert picker.picks() == one
    told = {line for _, line in one}
    assert "xhttp/1.1 503 upstream" in told and "terror alert ignored" in told
    assert "coder 500" not in told and "unfailing" not in told


def test_lines_past_the_window_are_counted_not_judged(monkeypatch):
    monkeypatch.setattr(standout, "SCAN_CHARS", 1000)
    lines = [f"10:00:{n % 60:02d} INFO step {n} ok" for n in range(1, 401)]
    lines[9] = "10:00:10 ERROR early"
    lines[299] = "10:05:00 ERROR late"
    picker = Standout(limit=5, neighbours=0)
    for start in range(0, len(lines), 20):
        picker.add_block(start + 1, lines[start:start + 20])
    assert picker.count == 400 and picker.scanned < 400
    assert picker.unscanned_from == picker.scanned + 1
    assert [line for _, line in picker.picks()] == ["10:00:10 ERROR early"]
    one = Standout(limit=5, neighbours=0)
    for i, line in enumerate(lines, 1):
        one.add(i, line)
    assert one.picks() == picker.picks() and one.unscanned_from is not None
