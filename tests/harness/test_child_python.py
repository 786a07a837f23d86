"""A castrules child process (an in-process engine's worker) imports the same castrules as its
parent, even from a directory holding another folder named castrules (a source checkout of
castrules itself with the package installed from it, where `python -m` would find the folder
first and then no castrules.harness)."""
from __future__ import annotations

from castrules.harness.engine import close
from castrules.harness.engine_spec import parse_engine_spec
from castrules.harness.suite import load_suite
from castrules.harness.worker_engine import worker_engine


def test_a_worker_started_beside_another_castrules_folder_still_runs(tmp_path, monkeypatch):
    (tmp_path / "castrules").mkdir()
    (tmp_path / "castrules" / "__init__.py").write_text("")   # a package without harness/
    monkeypatch.chdir(tmp_path)
    suite = load_suite()
    case = suite.cases[0]
    engine = worker_engine(parse_engine_spec("py:castrules.harness.bench_engines:OracleCopy"), timeout=60)
    try:
        reply = engine.run(case.request(suite.catalog.subset(case.card_names())))
    finally:
        close(engine)
    assert "steps" in reply, reply
