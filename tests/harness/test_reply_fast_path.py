"""``replies.problems`` answers the common case (clean data) without building pointers; the fast
check must agree with the detailed walk on every value, clean or not."""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from castrules.harness import replies

SCALARS = st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.integers(-2**64, 2**64),
                    st.floats(allow_nan=True, allow_infinity=True), st.just(object()))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.frozensets(st.integers(0, 3), max_size=2),
    st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 2)), inner, max_size=3)), max_leaves=12)


def detailed(value, sets_as_arrays: bool) -> list[str]:
    found: list[str] = []
    arrays = (list, tuple, set, frozenset) if sets_as_arrays else (list, tuple)
    replies._walk(value, "", 0, found, [replies.MAX_NODES], arrays)
    return found[:replies.MAX_PROBLEMS]


@settings(max_examples=300, database=None)
@given(VALUES, st.booleans())
def test_the_fast_check_agrees_with_the_detailed_walk(value, sets_as_arrays):
    assert replies.problems(value, sets_as_arrays) == detailed(value, sets_as_arrays)


def test_depth_and_size_limits_still_reported():
    deep: list = []
    for _ in range(replies.MAX_DEPTH + 2):
        deep = [deep]
    assert replies.problems(deep) and replies.problems(list(range(replies.MAX_NODES + 1)))
    assert replies.problems({"x": math.nan}) and replies.problems({"x": 2**64}) and replies.problems({1: "a"})
    assert replies.problems({"a": [1, 2.5, None, True, "s"]}) == []


def test_a_reply_is_walked_once_on_the_protocol_and_always_in_process(monkeypatch):
    """A protocol engine's result was checked by ``replies.loads`` as part of its line, so the
    runner does not walk it again (``replies_checked``); an in-process engine's reply, which
    nothing checked, is still walked, and a bad one is still that case's error."""
    from castrules.harness import runner
    from castrules.harness.results import Result, Status
    from castrules.harness.subprocess_engine import SubprocessEngine
    from castrules.harness.suite import shared_suite

    assert SubprocessEngine.replies_checked is True
    case = next(c for c in shared_suite().cases if len(c.steps) == 1 and not c.observe_points())
    good = {"status": "ok", "steps": [{"legal": True}], "snapshots": {}}
    walked = []
    real = replies.problems
    monkeypatch.setattr(replies, "problems", lambda value, *a, **k: walked.append(value) or real(value, *a, **k))
    base = Result(case.id, Status.PASS)
    runner.judge(base, case, {}, good, checked=True)
    assert walked == []
    runner.judge(base, case, {}, good)
    assert walked == [good]
    bad = dict(good, snapshots={"0": {"x": math.nan}})
    assert runner.judge(base, case, {}, bad).status is Status.ERROR


def _outcome(parse, text: str):
    try:
        return ("value", parse(text))
    except Exception as exc:  # noqa: BLE001 - the outcome compared is the exception itself
        return (type(exc).__name__, str(exc))


LINE_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.integers(-2**70, 2**70),
              st.sampled_from([10**30, -10**25, 2**63, 2**63 + 1])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=3)),
    max_leaves=10)


@settings(max_examples=300, database=None)
@given(LINE_VALUES, st.sampled_from(["", "NaN", "1e999", "2.5", "9" * 5000, "[" * 70 + "]" * 70, "{", "-"]))
def test_the_fast_line_parser_answers_as_the_strict_one(value, extra):
    """``replies.loads`` parses clean lines without a hook per integer; on every line, clean or
    not (NaN, overflowing floats, integers of any size, nesting too deep, broken JSON), its
    value or its error is the strict parser's."""
    import json

    text = json.dumps({"type": "result", "seq": 1, "result": value})
    if extra:
        text = text[:-1] + f', "x": {extra}}}'
    assert _outcome(replies.loads, text) == _outcome(replies._strict_loads, text)
