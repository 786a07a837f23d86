"""``plain_data.problem`` accepts clean documents without building pointers (``_clean``); on
every value, clean or not, its answer must be the reference walk's (``_first_problem``)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from castrules.harness import plain_data
from castrules.harness.plain_data import DEFAULT, Limits, _BadNumber, _DuplicateKeys

SCALARS = st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.integers(-2**60, 2**60),
                    st.sampled_from([2**53, -2**53, 2**53 + 1]), st.floats(allow_nan=True, allow_infinity=True),
                    st.just(_BadNumber("1e999", "too big")), st.just(object()))


def _duplicate(mapping: dict) -> _DuplicateKeys:
    marked = _DuplicateKeys(mapping)
    marked.duplicate = "k"
    return marked


VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.frozensets(st.integers(0, 3), max_size=2),
    st.dictionaries(st.one_of(st.text(max_size=2), st.integers(0, 2)), inner, max_size=3),
    st.dictionaries(st.text(max_size=2), inner, max_size=2).map(_duplicate)), max_leaves=12)


@settings(max_examples=400, database=None)
@given(VALUES, st.sampled_from([DEFAULT, Limits(max_depth=2)]))
def test_the_fast_check_agrees_with_the_reference_walk(value, limits):
    assert plain_data.problem(value, limits) == plain_data._first_problem(value, limits)
    assert plain_data.problem({"doc": [value]}, limits) == plain_data._first_problem({"doc": [value]}, limits)


def test_depth_is_bounded_on_the_fast_path():
    deep: list = []
    for _ in range(DEFAULT.max_depth + 1):
        deep = [deep]
    assert plain_data.problem(deep) is not None and plain_data.problem(deep[0]) is None
