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


def test_what_the_fast_parser_may_read_is_decided_as_by_one_multiline_pattern():
    """The text check before the fast YAML parser: a character test and two patterns anchored
    on the text's start and on newlines, the same answer as the one pattern with ``^``."""
    import re

    from castrules.harness.documents import _fast_parser_may_read

    reference = re.compile(r"[!&*]|^(?:---|\.\.\.)|^[ \t?-]{64}", re.MULTILINE)
    deep = " " * 64 + "x: 1\n"
    texts = ["a: 1\n", "a: !tag 1\n", "a: &x 1\nb: *x\n", "---\na: 1\n", "a: 1\n---\n", "a: 1\n...\n",
             "a: b---c\n", " ---\n", deep, "a:\n" + deep, "a:\n" + " " * 63 + "x\n", "a:\n" + "- " * 32 + "x\n",
             "a: 1\r\n---\r\n", "", "\n", "a: '...'\n", "a: 1\n\t" + "?" * 63 + "\n"]
    texts += [path.read_text(encoding="utf-8") for path in suite_yaml_files()]
    assert [_fast_parser_may_read(t) for t in texts] == [reference.search(t) is None for t in texts]
