"""An empty answer says truthfully why: no words, only common words, or words nothing in the documents uses
(then close card names / corpus words are offered). Issue #3 follow-up: 'zzzz qqq' was told it had
'no searchable words'."""
from __future__ import annotations

import pytest

from app.search.query import engine_for, search


@pytest.mark.parametrize("query", ["zzzz qqq", "qwxz", "zzzz"])
def test_words_that_match_nothing_are_called_words(store, query):
    result = search(store, query)
    assert result["results"] == []
    reason = result["reason"]
    assert "no searchable words" not in reason and "only" not in reason
    assert "matches" in reason
    for word in query.split():
        assert f"'{word}'" in reason          # the player sees which words found nothing
    assert result["suggestions"] == []        # nothing is close to these


@pytest.mark.parametrize("query", ["???", "!!! ...", "🂡🃏", "-- // **"])
def test_punctuation_only(store, query):
    result = search(store, query)
    assert result["results"] == [] and "no words" in result["reason"]


@pytest.mark.parametrize("query", ["the of and", "how does it work", "what is this"])
def test_only_common_words(store, query):
    result = search(store, query)
    assert result["results"] == [] and "only common words" in result["reason"]


def test_close_corpus_word_is_read_as_that_word_and_leads_somewhere(store):
    eng = engine_for(store)
    result = search(store, "shufle")
    assert result["spelling"] == [{"typed": "shufle", "read": "shuffle"}]
    assert "shuffle" in eng.names.vocabulary                # a word of the documents, not one made up
    assert [r["key"] for r in result["results"]] == [r["key"] for r in search(store, "shuffle")["results"]]


def test_an_ambiguous_four_letter_typo_is_suggested_not_corrected(store):
    """Four letters are easy to read as the wrong word ('tken': token? taken?): offered, never searched."""
    result = search(store, "tken")
    assert result["results"] == [] and result["spelling"] == []
    assert {"token", "taken"} <= set(result["suggestions"]) and "did you mean" in result["reason"]
    assert search(store, "token")["results"]              # following the suggestion finds answers


def test_a_four_letter_typo_of_one_common_word_is_read_as_it(store):
    """'drwa' is one edit from 'draw' and from no other word players or the rules use."""
    result = search(store, "drwa")
    assert result["spelling"] == [{"typed": "drwa", "read": "draw"}]
    assert [r["key"] for r in result["results"]] == [r["key"] for r in search(store, "draw")["results"]]


def test_short_misspelt_card_name_is_suggested(store):
    """Four-letter names are never auto-corrected ('moet' could be many words), but are offered."""
    result = search(store, "moet")
    assert result["results"] == [] and result["cards"] == []
    moat = store.find_card("Moat")["name"]
    assert result["suggestions"][0] == moat
    assert len({s.lower() for s in result["suggestions"]}) == len(result["suggestions"])
    assert search(store, result["suggestions"][0])["results"][0]["key"] == store.find_card("Moat")["slug"]


def test_suggestions_do_not_depend_on_the_order_words_were_stored_in(store):
    """Ties in distance go to the commoner word, so every worker (each with its own hash seed) offers the same."""
    from types import SimpleNamespace

    from app.search.query import _suggestable_words

    vocabulary = engine_for(store).names.vocabulary
    backwards = SimpleNamespace(vocabulary=dict(reversed(list(vocabulary.items()))))
    assert _suggestable_words(backwards) == _suggestable_words(SimpleNamespace(vocabulary=vocabulary))
