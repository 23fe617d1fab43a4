"""The translation model: players' words for the rules' words, learned from the question tables."""
from __future__ import annotations


import pytest

from app.search import translation
from app.search.query import engine_for, search
from app.search.translation import Translation, learn


# Players ask "topdeck" about passages that say "onto your deck", and no other word is in all of those
# passages alone; "gain" is asked as itself.
PAIRS = [
    (["topdeck", "gain"], ["gain", "card", "onto", "deck"]),
    (["topdeck"], ["put", "card", "onto", "deck"]),
    (["topdeck", "card"], ["reveal", "card", "onto", "deck"]),
    (["put", "hand"], ["put", "card", "into", "hand"]),
    (["reveal"], ["reveal", "card", "hand"]),
    (["draw"], ["draw", "card", "deck"]),
    (["gain", "card"], ["gain", "card", "supply"]),
    (["gain"], ["gain", "cost", "supply"]),
]


def test_a_word_players_use_is_learned_as_the_passage_word_it_stands_for():
    table = learn(PAIRS)
    best = max(table["topdeck"], key=table["topdeck"].get)
    assert best == "onto"       # in every "topdeck" passage and in no other: it explains the word
    assert table["gain"]["gain"] > table["gain"]["card"]     # asked as itself, not as any word beside it
    assert "supply" not in table.get("topdeck", {})     # never in a passage asked about as "topdeck"


def _model(table, docs):
    words = [w for ws in docs for w in ws]
    return Translation(table, {w: words.count(w) / len(words) for w in set(words)},
                       [({w: ws.count(w) for w in ws}, len(ws)) for ws in docs])


def test_a_passage_is_found_by_the_words_players_use_for_its_own():
    docs = [["put", "card", "onto", "deck"], ["put", "card", "into", "hand"]]
    scores = _model(learn(PAIRS), docs).scores(["topdeck", "card"], [0, 1])
    assert scores[0] > scores[1]


def test_a_question_no_passage_explains_scores_every_passage_alike():
    docs = [["put", "card", "onto", "deck"], ["put", "card", "into", "hand"]]
    scores = _model(learn(PAIRS), docs).scores(["zebra"], [0, 1])
    assert scores[0] == scores[1]


def test_without_question_tables_nothing_is_learned_and_every_passage_scores_alike():
    assert learn([]) == {} and learn([([], ["gain", "card"])]) == {}
    docs = [["put", "card", "onto", "deck"], ["gain", "card"]]
    scores = _model({}, docs).scores(["topdeck"], [0, 1])
    assert scores[0] == scores[1]


def test_the_build_writes_the_model_and_search_reads_it(store):
    eng = engine_for(store)
    model = eng.info.translation
    assert model is not None and len(model.docs) == eng.postings.doc_count
    assert model.table["topdeck"]       # a word players use, learned from the real tables


@pytest.mark.parametrize("query, answer", [
    # the rule's table questions say "once per turn", the player asks "twice"
    ("can I buy the same event twice in one turn", "iv-events-and-projects#p11"),
    ("remodel trashing catacombs", "catacombs#r"),     # rulings with no table questions at all
])
def test_players_wording_finds_the_ruling(store, query, answer):
    keys = [r["key"] for r in search(store, query, 10)["results"][:3]]
    assert any(k.startswith(answer) for k in keys), keys
