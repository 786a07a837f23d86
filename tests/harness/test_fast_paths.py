"""The fast parsers and validators must agree with the reference ones on the whole suite."""

from __future__ import annotations

import pytest
import yaml

from castrules.harness import paths, schemas
from castrules.harness.documents import _SafeLoader, yaml_rs
from castrules.harness.suite import case_files


def suite_yaml_files():
    return [*case_files(paths.cases_dir()), *sorted(paths.catalog_dir().glob("*.yaml"))]


@pytest.mark.skipif(yaml_rs is None, reason="yaml-rs is not installed: the reference parser is used alone")
def test_fast_yaml_parser_reads_every_suite_file_as_pyyaml_does():
    different = []
    for path in suite_yaml_files():
        text = path.read_text(encoding="utf-8")
        if yaml_rs.loads(text) != yaml.load(text, Loader=_SafeLoader):
            different.append(str(path))
    assert different == []


@pytest.mark.skipif(schemas.jsonschema_rs is None, reason="jsonschema-rs is not installed")
def test_fast_validator_agrees_with_jsonschema():
    checked = 0
    for path in case_files(paths.cases_dir()):
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=_SafeLoader)
        fast = schemas.is_valid("case", doc)
        slow = not any(True for _ in schemas.validator("case").iter_errors(doc))
        assert fast == slow, path
        broken = dict(doc, title=3)
        assert schemas.is_valid("case", broken) is False
        checked += 1
    assert checked > 0
