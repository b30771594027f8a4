"""The hot-path JSON helpers agree with the json module."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from cc_hook import jsonline

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=60)
@given(json_values)
def test_dumps_matches_json_dumps(value):
    assert jsonline.dumps(value) == json.dumps(value)


@settings(max_examples=60)
@given(json_values)
def test_loads_reads_what_json_writes(value):
    assert jsonline.loads(json.dumps(value, ensure_ascii=False, indent=1)) == value


@pytest.mark.parametrize("text", ["", " ", "{", '{"a": 1} x', "[1,]", "nul", "'a'", "{'a': 1}"])
def test_loads_rejects_what_is_not_one_document(text):
    with pytest.raises(ValueError):
        jsonline.loads(text)


def test_dumps_refuses_what_json_cannot_write():
    with pytest.raises(TypeError):
        jsonline.dumps({"a": object()})
    with pytest.raises(TypeError):
        jsonline.dumps({1: "a"})
