"""Search as players use it: card-first answers, interaction questions, concepts, results shape, CLI."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from app.corpus.text import plain
from app.search.commands import search_command
from app.search.query import search


def keys(result):
    return [r["key"] for r in result["results"]]


@pytest.mark.parametrize("query, card", [("Feast", "Feast"), ("watchtower", "Watchtower"), ("Throne Room", "Throne Room"),
                                         ("KC", "King's Court"), ("Burggraben", "Moat"), ("libary", "Library")])
def test_a_query_that_is_a_card_name_puts_that_card_first(store, query, card):
    slug = store.find_card(card)["slug"]
    top = search(store, query)["results"][0]
    assert (top["kind"], top["key"], top["url"]) == ("card", slug, f"/cards/{slug}")


def test_top_card_hit_carries_facts_and_first_rulings(store):
    top = search(store, "Feast")["results"][0]
    card = store.row("select * from cards where slug='feast'")
    assert top["facts"]["cost_coins"] == card["cost_coins"]
    assert top["facts"]["types"] == card["types"]
    first = store.rows("select key from rulings where card='feast' and kind='ruling' and version is null order by ord limit 3")
    assert [r["key"] for r in top["first_rulings"]] == [r["key"] for r in first]


@pytest.mark.parametrize("query, cards", [
    ("can I throne room a feast?", {"throne-room", "feast"}),
    ("Watchtower Border Village which goes first", {"watchtower", "border-village"}),
    ("Burggraben gegen Hexe", {"moat", "witch"}),
])
def test_two_card_questions_rank_what_mentions_both_first(store, query, cards):
    result = search(store, query, 10)
    assert {c["slug"] for c in result["cards"]} == cards
    results = result["results"]
    assert cards <= set(results[0]["cards"]), results[0]
    # issue #13: the first text naming every card (the interaction ruling) beats both cards' own entries
    documents = [r for r in results if r["kind"] != "scenario"]
    first_both = next(i for i, r in enumerate(documents) if cards <= set(r["cards"]))
    entries = [i for i, r in enumerate(documents) if r["kind"] == "card" and r["key"] in cards]
    assert all(first_both < i for i in entries), [r["key"] for r in documents]


@pytest.mark.parametrize("query, cards", [
    ("Burggraben gegen Hexe", {"moat", "witch"}),
    ("can I throne room a feast?", {"throne-room", "feast"}),
    ("fortress trashed by chapel", {"fortress", "chapel"}),
    ("king's court caravan how many cards next turn", {"kings-court", "caravan"}),
])
def test_every_named_card_has_its_own_entry_near_the_top(store, query, cards):
    """Issue #3 follow-up: 'Burggraben gegen Hexe' listed rules paragraphs before Moat itself."""
    results = [r for r in search(store, query, 10)["results"] if r["kind"] != "scenario"]
    top = results[:len(cards) + 1]
    for slug in cards:
        owned = {r["key"] for r in store.rows("select key from rulings where card=?", (slug,))} | {slug}
        owned |= {r["key"] for r in store.rows("select key from faq_clarifications where card=?", (slug,))}
        owned |= {r["key"] for r in store.rows("select key from german_passages where card=?", (slug,))}
        assert any(r["key"] in owned for r in top), (slug, [r["key"] for r in top])


@pytest.mark.parametrize("query", ["Burggraben gegen Hexe", "lose track", "how do reactions work",
                                   "order of abilities that trigger at the same time", "split piles"])
def test_a_section_takes_one_result_or_two_paragraphs_with_the_rest_reachable(store, query):
    results = search(store, query, 10)["results"]
    sections = Counter(r["key"].split("#p")[0] for r in results if r["kind"] not in ("card", "ruling"))
    for section, n in sections.items():
        # a section shown twice is shown by two of its paragraphs, never by itself beside one
        assert n == 1 or n == 2 and section not in {r["key"] for r in results}, sections
    shown = {r["key"] for r in results}
    for r in results:
        for m in r["more"]:
            # a collapsed hit is the same section (or the card entry behind its ruling) and is not shown twice
            assert m["key"] not in shown
            # the same section, the card's entry, or (a German slot) another German passage of the same card
            assert m["key"].split("#p")[0] == r["key"].split("#p")[0] or m["key"] == r.get("card") or \
                (r["kind"] == "German" and m["url"].startswith(f"/cards/{r['card']}#de-")), (r["key"], m)
            assert m["url"].split("#")[0] == r["url"].split("#")[0]


@pytest.mark.parametrize("query, section", [("can I reveal a reaction even if the attack doesn't hurt me",
                                             "vi-reaction-to-attack"),
                                            ("deluded playing actions in the buy phase", "vii-deluded")])
def test_a_section_is_shown_by_its_paragraph_that_matches(store, query, section):
    """A section that wins on its whole body is shown by the paragraph that says it, with that
    paragraph's anchor, rather than from the top of the section."""
    results = search(store, query, 10)["results"]
    keys = [r["key"] for r in results]
    assert section not in keys
    # a FAQ / § V / § VI paragraph restating a rule is shown inside that rule's hit (``restated``)
    keys += [x["key"] for r in results for x in r["restated"]]
    shown = [k for k in keys if k.startswith(section + "#p")]
    assert len(shown) == 1, keys
    para = store.row("select text from paragraphs where key = ?", (shown[0],))["text"].lower()
    assert any(w[:5] in para for w in query.lower().split() if len(w) > 4), (shown[0], para[:120])


def test_two_paragraphs_of_one_section_that_both_answer_are_both_on_the_first_screen(store):
    """Basic Setup says more Treasures for 5-6 players in one paragraph and for fewer in the next; the
    ranking cannot tell which the player means, and folding one behind the other hid the first."""
    keys = [r["key"] for r in search(store, "more treasures for six players", 10)["results"][:3]]
    assert {"i-basic-setup#p9", "i-basic-setup#p10"} <= set(keys), keys
    p9 = store.row("select text from paragraphs where key = 'i-basic-setup#p9'")["text"]
    assert "5 or 6 players" in p9 and "Coppers, Silvers and Golds" in p9


def test_burggraben_gegen_hexe_shows_the_reaction_rule_once(store):
    titles = [r["title"] for r in search(store, "Burggraben gegen Hexe", 10)["results"] if r["kind"] == "section"]
    assert len(titles) == len(set(titles)), titles


def test_a_card_question_keeps_the_card_facts_with_the_first_hit(store):
    """The entry merged into the card's best ruling still shows its cost and text with that hit."""
    result = search(store, "crossroads played twice actions", 10)
    first = next(r for r in result["results"] if r["card"] == "crossroads")
    card = store.row("select * from cards where slug='crossroads'")
    assert first["facts"]["text"] == card["text"]
    entry_shown = any(r["key"] == "crossroads" for r in result["results"])
    entry_behind = any(m["key"] == "crossroads" for r in result["results"] for m in r["more"])
    assert entry_shown or entry_behind


def test_throne_room_feast_finds_the_feast_ruling_first(store):
    # Feast ruling 1 is the one naming Throne Room + Feast (checked against the store, not typed in)
    text = plain(store.row("select text from rulings where key='feast#r1'")["text"])
    assert "Throne Room" in text and "Feast" in text
    results = search(store, "can I throne room a feast?")["results"]
    # issue #13: the scenario that shows it comes first, citing that ruling; then the ruling itself
    assert results[0]["kind"] == "scenario" and "feast#r1" in results[0]["cites"], results[0]
    assert results[0]["url"] == "/scenarios/throne-room-feast" and results[0]["settles"]
    top = results[1]
    assert (top["kind"], top["card"], top["ruling"], top["url"]) == ("ruling", "feast", 1, "/cards/feast#r1")


def test_exact_card_ranks_before_fuzzy_card(store):
    result = search(store, "Feast libary")
    hows = {c["slug"]: c["how"] for c in result["cards"]}
    assert hows == {"feast": "exact", "library": "fuzzy"}
    first_card_hit = next(r for r in result["results"] if r["card"] in hows)
    assert first_card_hit["card"] == "feast"


@pytest.mark.parametrize("query, section_title", [("lose track", "lose track"), ("overpay", "Overpaying"),
                                                  ("split piles", "Split piles")])
def test_concept_words_reach_their_sections(store, query, section_title):
    result = search(store, query)
    assert result["concepts"]
    top3 = result["results"][:3]
    assert any(section_title.lower() in (r.get("section") or r["title"]).lower() for r in top3), top3


def test_results_have_kind_snippet_and_address(store):
    result = search(store, "Watchtower Border Village which goes first", 10)
    json.dumps(result)                                       # the API returns it as is
    kinds = {r["kind"] for r in result["results"]}
    assert kinds <= {"card", "ruling", "section", "common effect", "FAQ", "rulebook", "German", "index term",
                     "scenario"}
    for r in result["results"]:
        assert r["url"].startswith("/") and r["title"] and r["snippet"]
        if r["kind"] == "ruling":
            # numbered rulings and unnumbered notes both link to the anchor the card page gives them
            anchor = store.row("select anchor from rulings where key=?", (r["key"],))["anchor"]
            assert r["url"] == f"/cards/{r['card']}#{anchor}"
            if r["ruling"] is not None:
                assert anchor.endswith(f"r{r['ruling']}")
        if r["kind"] == "section" and "#" in r["key"]:
            assert r["url"].startswith("/rules/") and r["url"].endswith("#" + r["key"].split("#")[1])
            assert r["section"]
    assert any("<mark>" in r["snippet"] for r in result["results"])
    grouped = [rank for g in result["groups"] for rank in g["ranks"]]
    assert sorted(grouped) == [r["rank"] for r in result["results"]]


def test_snippets_are_escaped_and_markup_free(store):
    for r in search(store, "<script>alert(1)</script> feast **gain**", 10)["results"]:
        assert "<script>" not in r["snippet"] and "**" not in r["snippet"] and "](#)" not in r["snippet"]


def test_limit_is_respected_and_clamped(store):
    assert len(search(store, "trash", 3)["results"]) == 3
    assert len(search(store, "trash", 0)["results"]) == 1
    assert len(search(store, "trash", 10_000)["results"]) <= 100


def test_cli_json_is_the_api_dict(store, built_index, capsys):
    assert search_command("TR feast", as_json=True, limit=5) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(search(store, "TR feast", 5)))


def test_cli_text_and_empty_result(built_index, capsys):
    assert search_command("thorne room", as_json=False, limit=3) == 0
    out = capsys.readouterr().out
    assert "Throne Room" in out and "/cards/throne-room" in out
    assert search_command("   ", as_json=False, limit=3) == 1
    assert "No results" in capsys.readouterr().out


def test_cli_without_a_store_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RULINGS_INDEX_DIR", str(tmp_path))
    assert search_command("feast", as_json=False, limit=3) == 2
    assert "rulings build" in capsys.readouterr().err
