"""The state's object map (oracle.objmap) behaves as a dict copied at each update would,
whichever kind it is: the small dict and the layered map for thousands of objects."""

from __future__ import annotations

from hypothesis import given, strategies as st

from castrules.oracle.objmap import LAYER_FROM, LayeredObjects, Objects, updated

KEYS = st.integers(min_value=0, max_value=LAYER_FROM + 200).map(lambda i: f"o{i}")


def _same(m, reference: dict) -> None:
    assert list(m) == list(reference)
    assert list(m.values()) == list(reference.values())
    assert list(m.items()) == list(reference.items())
    assert len(m) == len(reference)
    for k, v in reference.items():
        assert k in m and m[k] == v and m.get(k) == v
    assert "absent" not in m and m.get("absent", 7) == 7


@given(start=st.integers(min_value=0, max_value=LAYER_FROM + 50),
       batches=st.lists(st.lists(st.tuples(KEYS, st.integers()), max_size=40), max_size=30))
def test_updates_match_a_dict_copied_at_each_step(start, batches):
    reference = {f"o{i}": -i for i in range(start)}
    m = Objects(reference)
    for batch in batches:
        before, before_items = m, list(m.items())
        m = updated(m, batch)
        for k, v in batch:
            reference[k] = v
        _same(m, reference)
        assert list(before.items()) == before_items          # the old map never changes


def test_a_large_map_is_layered_and_folds_its_overlay():
    m = updated(Objects(), ((f"o{i}", i) for i in range(LAYER_FROM)))
    assert isinstance(m, LayeredObjects)
    for i in range(200):
        m = updated(m, [(f"o{i}", -i)])
        assert len(m._over) ** 2 <= len(m._base)      # never past its square-root bound
    assert m["o5"] == -5 and m["o300"] == 300 and len(m) == LAYER_FROM
