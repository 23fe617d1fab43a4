"""Whatever a player pastes into the box, search answers: results, or none with a reason. Never an exception."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.search.query import search

NASTY = [
    '"throne room', "feast\"", "AND", "OR", "NOT", "AND OR NOT", "(", ")", "((feast", "*", "feast*", "*feast",
    "~", "feast~2", "thorne~", "title:feast", "key:feast#r1", "cards:moat", "body:", ":", "\\", "^2", "feast^10",
    "[a TO z]", "{}", "+-!&|", "'", "''", "\u0000", "feast\x00moat", "\x1b[31mred", "\t\n\r", "\u200b\u200d",
    "🂡🃏 feast 🛡️", "Bürokrat", "ÆØÅ ß", "한국어", "مرحبا", "\ud7ff", "𝔉𝔢𝔞𝔰𝔱", "ｆｅａｓｔ", "", "   ", "?",
    "x" * 10_000, ("feast " * 2000), ("thorne room libary " * 600),
]


def check(result):
    json.dumps(result)
    assert isinstance(result["results"], list)
    if not result["results"]:
        assert result["reason"]


@pytest.mark.parametrize("query", NASTY, ids=range(len(NASTY)))
def test_query_syntax_never_raises(store, query):
    check(search(store, query, 5))


def test_long_query_is_shortened_with_a_note(store):
    result = search(store, "feast " * 2000, 5)
    assert result["notes"] and len(result["query"]) <= 500
    assert result["results"][0]["card"] == "feast"


def test_fullwidth_and_fancy_letters_are_normalised(store):
    assert search(store, "ｆｅａｓｔ", 3)["results"][0]["key"] == "feast"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_any_unicode_text(store, text):
    check(search(store, text, 5))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(['"', "AND", "OR", "NOT", "*", "~", "feast", "title:", "(", ")", "^", "moat", "thorne",
                                 "KC", "Hexe", "-", "+", "\\", ":", "?"]), max_size=12))
def test_any_mix_of_operators_and_names(store, parts):
    check(search(store, " ".join(parts), 5))
