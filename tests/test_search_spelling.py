"""Ordinary words typed wrong are read as the word meant; card names typed wrong stay cards."""
from __future__ import annotations

import pytest

from app.search.query import search
from app.search.spelling import Speller


def _read(result):
    return {c["typed"]: c["read"] for c in result["spelling"]}


def test_misspelt_rule_words_are_searched_as_the_words_meant(store):
    result = search(store, "can I reshufle my discrad pile", 10)
    assert _read(result) == {"reshufle": "reshuffle", "discrad": "discard"}
    keys = [r["key"] for r in result["results"][:3]]
    assert any("from-your-deck" in k or "your-deck" in k for k in keys), keys


def test_a_question_of_misspelt_words_only_still_finds_rules(store):
    result = search(store, "atack on my oponent", 10)
    assert _read(result) == {"atack": "attack", "oponent": "opponent"}
    assert result["results"]


def test_a_common_word_typed_wrong_is_not_guessed_as_a_card(store):
    # "hapens" is one edit from "hapen" (Haven's name without its plural s) and from "happens"
    result = search(store, "what hapens when the suply runs out", 10)
    assert not result["cards"]
    assert _read(result) == {"hapens": "happens", "suply": "supply"}
    assert "vi-empty-supply-piles#p1" in [r["key"] for r in result["results"][:3]]


@pytest.mark.parametrize("query, card", [("libary", "library"), ("withc", "witch"), ("chappel trashing", "chapel"),
                                         ("thorne room on a vilage", "throne-room"), ("masqurade", "masquerade")])
def test_card_names_typed_wrong_are_still_read_as_cards(store, query, card):
    result = search(store, query, 5)
    assert card in [c["slug"] for c in result["cards"]]
    assert not result["spelling"]


@pytest.mark.parametrize("query", ["when does the game end", "Darf ich Burggraben spielen", "Kann ich zweimal kaufen",
                                   "can I buy nothing"])
def test_words_spelled_right_and_german_questions_are_left_alone(store, query):
    assert search(store, query, 5)["spelling"] == []


@pytest.mark.parametrize("word", ["sleeves", "stacking", "chaining", "cheating", "rematch", "hoarding"])
def test_players_words_the_corpus_lacks_are_not_turned_into_other_words(store, word):
    """Two letters off is another word more often than a typo: "stacking" is not "starting"."""
    assert search(store, f"{word} rules", 5)["spelling"] == []


def test_short_words_and_card_words_are_never_the_correction():
    speller = Speller({"discard": [40, 40, 10], "draw": [50, 50, 10], "village": [30, 40, 5], "cellar": [0, 9, 0]},
                      frozenset({"village"}), frozenset())
    assert speller.nearest("discrad") == ("discard", 1, 50)
    assert speller.nearest("drwa") is None          # four letters: too easy to confuse
    assert speller.nearest("vilage") is None        # a card's word: the name index reads it
    assert speller.nearest("celar") is None         # used only capitalised (a name), never as a word


def test_the_page_says_how_a_word_was_read(client):
    html = client.get("/search", query_string={"q": "can I reshufle my discrad pile"}).data.decode()
    assert "Read “reshufle” as “reshuffle”, “discrad” as “discard”" in html


def test_the_command_line_says_how_a_word_was_read(store):
    from app.search.commands import format_text

    assert format_text(search(store, "atack on my oponent", 3)).startswith("Read 'atack' as 'attack', 'oponent' as 'opponent'")


def test_a_query_of_many_unknown_words_looks_up_only_a_few(store, monkeypatch):
    """Each lookup is a pass over the vocabulary: a long query of made-up words is bounded, not a cost per word."""
    from app.search import spelling
    from app.search.query import engine_for

    speller = engine_for(store).speller
    calls = []
    real = speller.nearest
    monkeypatch.setattr(speller, "nearest", lambda w: calls.append(w) or real(w))
    search(store, " ".join(f"zorblax{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(50)))
    assert len(calls) == spelling.MAX_LOOKUPS
    calls.clear()
    search(store, " ".join(["discrad", "oponent"] * 20))       # a typo repeated is looked up once
    assert sorted(calls) == ["discrad", "oponent"]
