"""The Complete Rules index as the rules' own synonyms: its terms reach the sections they point at."""
from app.corpus.text import plain
from app.search.vocabulary import index_words, section_terms


def _mapping(store):
    sections = store.rows("select * from sections order by doc, ord")
    paras: dict[str, list[str]] = {}
    for p in store.rows("select section, text from paragraphs order by section, ord"):
        paras.setdefault(p["section"], []).append(plain(p["text"]))
    texts = {s["slug"]: f"{plain(s['title'])} " + " ".join(paras.get(s["slug"], [])) for s in sections}
    return section_terms(sections, texts, store.rows("select * from index_terms"))


def test_a_see_only_term_reaches_the_sections_of_its_target(store):
    # "Coin token : see *Coffers token*" -- the old name lands where Coffers are explained
    mapping = _mapping(store)
    coffers = [slug for slug, terms in mapping.items() if "Coffers token" in terms]
    assert coffers, "the Coffers token entry points at no section"
    assert all("Coin token" in mapping[slug] for slug in coffers)


def test_terms_point_only_at_complete_rules_sections(store):
    kinds = {r["slug"]: (r["doc"], r["kind"]) for r in store.rows("select slug, doc, kind from sections")}
    for slug in _mapping(store):
        doc, kind = kinds[slug]
        assert doc == "rules" and kind != "chapter", slug


def test_index_words_drop_the_qualifier_only():
    assert index_words("Action (type)") == "Action"
    assert index_words("trigger (verb)") == "trigger"
    assert index_words("new-edition cards (2016–2018)") == "new-edition cards (2016–2018)"


def test_the_indexed_section_carries_the_index_terms_pointing_at_it(store):
    # the build adds the terms to the section's searchable words; its paragraphs stay as printed
    from app.search.query import engine_for

    reader = engine_for(store).searcher()
    body = reader.document(key="iv-coffers-and-villagers")["body"]
    assert "Coin token" in body and "Villager token" in body
    paragraph = reader.document(key="iv-coffers-and-villagers#p3")["body"]   # p1, its set label, is no hit of its own
    assert "Coin token" not in paragraph
