"""Setups and steps read once per distinct content (oracle.by_content): the same values and the
same errors, with their pointers, as the model's own reading."""
from __future__ import annotations

import pytest

from castrules.model import ModelError, read_step
from castrules.oracle.by_content import by_content


def test_equal_documents_share_one_value_equal_to_the_models():
    reader = by_content(read_step)
    doc = {"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}
    first = reader(doc, "/steps/0")     # first sight: read, not kept
    assert first == read_step(doc, "/steps/0") and not reader.kept(first)
    kept = reader({"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}, "/steps/3")
    assert kept == first and reader.kept(kept)
    assert reader({"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}, "/steps/5") is kept
    assert reader({"cast": {"player": "A", "object": "bolt", "targets": ("B",)}}, "/steps/3") is not kept  # exact types


@pytest.mark.parametrize("doc", [{"cast": {"player": "A"}}, {"no_such_step": {}}, {"cast": {"player": 1.5, "object": "x"}}])
def test_errors_are_the_models_with_their_pointer(doc):
    reader = by_content(read_step)
    for _ in range(2):
        with pytest.raises(ModelError) as cached:
            reader(doc, "/steps/7")
        with pytest.raises(ModelError) as direct:
            read_step(doc, "/steps/7")
        assert str(cached.value) == str(direct.value) and "/steps/7" in str(cached.value)


def test_a_document_marshal_cannot_write_is_read_by_the_model():
    class Name(str):
        pass

    reader = by_content(read_step)
    doc = {"cast": {"player": Name("A"), "object": "bolt"}}
    assert reader(doc) == read_step(doc)
