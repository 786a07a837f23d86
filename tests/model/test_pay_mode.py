"""Who finds a step's payment: one definition (model.steps.pays_automatically) for the model's
typed steps and the harness's contract, which reads raw documents (issue 11)."""
from __future__ import annotations

import pytest

from castrules.harness.contract import implicit_payments
from castrules.model import read_step, to_document

BODIES = [
    ({}, True),                                                      # nothing listed: the engine pays
    ({"pay": "auto"}, True),
    ({"pay": "listed"}, False),
    ({"mana_abilities": []}, False),                                 # an empty list: the pool only
    ({"mana_abilities": [{"object": "forest"}]}, False),
    ({"mana_abilities": [{"object": "forest"}], "pay": "auto"}, True),
    ({"mana_abilities": [], "pay": "auto"}, True),
]


@pytest.mark.parametrize("kind", ["cast", "activate", "special_action"])
@pytest.mark.parametrize("extra, auto", BODIES)
def test_model_and_contract_agree_on_who_pays(kind, extra, auto):
    body = {"player": "A", "object": "x", **({"action": "suspend"} if kind == "special_action" else {}), **extra}
    step = read_step({kind: body})
    assert step.auto_pay is auto
    assert bool(list(implicit_payments({"steps": [{kind: body}]}))) is auto


@pytest.mark.parametrize("extra, auto", BODIES)
def test_written_back_a_step_keeps_who_pays(extra, auto):
    """to_document leaves out an empty list; the pool-only meaning survives as `pay: listed`."""
    again = read_step(to_document(read_step({"cast": {"player": "A", "object": "x", **extra}})))
    assert again.auto_pay is auto
