"""A message quotes at most a short excerpt of user input (issue: faults, point 1):
case files, checks, engine replies and command lines alike, ~80 characters with an ellipsis."""

from __future__ import annotations

import pytest

from castrules.harness import replies, schemas
from castrules.harness.documents import DocumentError, load_document
from castrules.harness.excerpts import EXCERPT_LIMIT, excerpt, quoted, shorten, shorten_quotations
from castrules.harness.runner import contract_problems
from castrules.harness.selection import select_checked
from castrules.harness.names import UnknownNameError
from castrules.harness.suite import load_suite, shared_suite
from tests.conftest import good_case

LONG = "secret-" * 1000          # 7,000 characters nobody wants in a terminal


def assert_short(message: str) -> None:
    """Some of LONG is quoted, cut with an ellipsis, and never more than the limit of it."""
    assert "secret-" in message and "..." in message
    assert LONG[:EXCERPT_LIMIT] not in message
    assert len(message) < EXCERPT_LIMIT + 200


@pytest.mark.parametrize("text", ["a" * 500, "\x00" * 500, "\U0001f600" * 500, "é\n" * 300])
def test_an_excerpt_is_at_most_the_limit_whatever_the_escapes(text):
    cut = excerpt(text)
    assert len(cut) <= EXCERPT_LIMIT and cut.endswith("...'") and cut.startswith("'")


def test_short_values_are_quoted_as_they_are():
    assert excerpt("prowl") == "'prowl'" and quoted("prowl") == "'prowl'" and quoted(3) == "3"
    assert shorten("x" * EXCERPT_LIMIT) == "x" * EXCERPT_LIMIT
    assert len(shorten("x" * 1000)) == EXCERPT_LIMIT and shorten("x" * 1000).endswith("...")
    assert shorten_quotations("'a' is a required property") == "'a' is a required property"


def test_a_schema_error_quotes_a_short_excerpt_of_the_value():
    [(pointer, message)] = [e for e in schemas.errors("case", good_case(title={LONG: 1})) if e[0] == "/title"]
    assert_short(message)
    assert message.endswith("is not of type 'string'")


def test_a_schema_error_quotes_a_short_excerpt_of_an_unknown_key():
    doc = good_case()
    doc[LONG] = 1
    messages = [m for _, m in schemas.errors("case", doc)]
    assert len(messages) == 1
    assert_short(messages[0])
    assert messages[0].startswith("Additional properties are not allowed")


def test_a_case_file_problem_quotes_a_short_excerpt(suite_builder):
    suite_builder.case("cases/casting/long.yaml", good_case(features=["casting", LONG]))
    suite = load_suite(suite_builder.root)
    [problem] = [str(p) for p in suite.problems]
    assert_short(problem)
    assert "does not match" in problem   # the schema's pattern for feature names


def test_a_check_quotes_a_short_excerpt_of_a_card_name(suite_builder):
    doc = good_case()
    doc["setup"]["objects"][0]["card"] = LONG
    suite_builder.case("cases/casting/card.yaml", doc)
    problems = [str(p) for p in load_suite(suite_builder.root).problems if "catalog" in str(p)]
    assert problems and all(len(p) < EXCERPT_LIMIT + 200 for p in problems)
    assert_short(problems[0])


def test_a_reply_problem_quotes_a_short_excerpt():
    [problem] = contract_problems({"status": LONG, "steps": []}, 0, [])
    assert_short(problem)
    [key_problem] = replies.problems({("tuple", LONG): 1})
    assert_short(key_problem)


def test_a_command_line_name_is_quoted_short():
    with pytest.raises(UnknownNameError) as caught:
        select_checked(shared_suite(), None, [LONG], [], [])
    assert_short(str(caught.value))


KEY = LONG[:700]   # YAML's implicit keys stop at 1,024 characters


@pytest.mark.parametrize("suffix, text", [(".yaml", f"{KEY}: 1\n{KEY}: 2\n"),
                                          (".json", f'{{"{LONG}": 1, "{LONG}": 2}}')])
def test_a_document_error_quotes_a_short_excerpt(tmp_path, suffix, text):
    path = tmp_path / f"dup{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DocumentError) as caught:
        load_document(path, root=tmp_path)
    assert_short(str(caught.value))
    assert "duplicate key" in str(caught.value)
