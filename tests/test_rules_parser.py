"""The rules parser on the real Complete Rules: structure, sample texts, pages, errors.

Counts asserted here are what the document holds (see the comments for how
each was checked against the text); a change means the document or the
parser changed and must be looked at.
"""
from __future__ import annotations

import dataclasses
import re

import pytest

from app.corpus.model import ParsedCorpus
from app.corpus.rules_parser import parse_rules, section_for_page, sections_for_page
from app.corpus.sources import CorpusError, load_document


@pytest.fixture(scope="module")
def doc():
    return load_document("rules")


@pytest.fixture(scope="module")
def parsed(doc):
    p = ParsedCorpus()
    parse_rules(doc, p)
    return p


@pytest.fixture(scope="module")
def by_slug(parsed):
    return {s.slug: s for s in parsed.sections}


def paras(parsed, slug):
    return [p for p in parsed.paragraphs if p.section == slug]


def kinds(parsed, kind):
    return [s for s in parsed.sections if s.kind == kind]


# --------------------------------------------------------------------------
# Table of contents, chapters, sections
# --------------------------------------------------------------------------

def test_eight_chapters_in_order(parsed):
    chapters = kinds(parsed, "chapter")
    assert [c.chapter for c in chapters] == ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
    assert chapters[0].slug == "i-introduction-and-setup"
    assert chapters[6].slug == "vii-detailed-timing-for-certain-cards"
    assert all(c.parent is None for c in chapters)


def test_sections_follow_the_table_of_contents(parsed, by_slug, doc):
    # The TOC (lines 5-58) has 54 'Title<TAB>page' lines: 8 chapters, 46 sections.
    toc_lines = [l for l in doc.lines[:60] if re.match(r"^\S.*\t\d+$", l)]
    sections = kinds(parsed, "section")
    assert len(toc_lines) == 54
    assert len(sections) == len(toc_lines) - 8 == 46
    assert len(parsed.toc_pages) == 54
    assert parsed.toc_pages["iii-advanced-timing-rules"] == 22
    assert parsed.toc_pages["viii-index"] == 165
    assert by_slug["ii-your-turn"].title == "Your turn"
    assert by_slug["ii-your-turn"].parent == "ii-game-rules-essential-rules"
    assert by_slug["iii-basic-timing-rules"].chapter == "III"


def test_every_heading_line_holds_its_title(parsed, doc):
    for s in parsed.sections:
        if s.kind in ("chapter", "section", "subsection"):
            printed = doc.line(s.line).strip().lower()
            wanted = s.title.split(" / ")[0].lower() if s.kind == "section" else s.title.lower()
            assert printed == wanted, (s.slug, s.line)


def test_subsections_of_advanced_timing_rules(parsed):
    subs = [s.title for s in parsed.sections if s.parent == "iii-advanced-timing-rules"]
    assert subs == [
        "Grouping of effects", "Resolving multiple abilities", "Abilities between turns",
        "Resolve all triggered abilities", "More concurrent abilities can trigger",
        "Ordering several players' concurrent abilities", "The \u201close track\u201d rule",
    ]


def test_your_turn_phases_are_subsections_not_overview_list_lines(parsed, by_slug):
    subs = [s.title for s in parsed.sections if s.parent == "ii-your-turn"]
    assert subs[:3] == ["A\u2014Action phase", "B\u2014Buy phase", "C\u2014Clean-up phase"]
    assert "ii-your-turn-a-action-phase" in by_slug
    # Chapter V overview list lines ("Urchin" after "...with this in **play**:") are not headings.
    overview = {s.title for s in parsed.sections if s.parent == "v-overviews-of-timing-of-abilities"}
    assert "When gain" in overview and "Overview of ability triggers" in overview
    assert not overview & {"Urchin", "Black Cat, Road Network", "Fool's Gold", "Grand Market"}


def test_slash_titles_become_one_subsection_per_printed_heading(by_slug):
    sec = by_slug["iv-potions-debt"]
    assert sec.aliases == ["Potions", "Debt"]
    assert by_slug["iv-potions-debt-debt"].parent == "iv-potions-debt"
    assert by_slug["iv-exchanging-reserve-cards-exile-exile"].title == "Exile"


def test_numbered_paragraph_of_advanced_timing_rules(parsed):
    ps = paras(parsed, "iii-advanced-timing-rules-resolving-multiple-abilities")
    third = next(p for p in ps if p.number == 3)
    assert third.text.startswith("- 3 When a card is **played** several times")   # markup kept
    assert [p.number for p in ps if p.number] == [1, 2, 3]
    # Glued numbered points ("- 3", "- 4" on consecutive lines) are split apart.
    more = paras(parsed, "iii-advanced-timing-rules-more-concurrent-abilities-can-trigger")
    assert [p.number for p in more if p.number] == [1, 2, 3, 4]


def test_paragraphs_point_at_their_lines_and_are_ordered(parsed, doc):
    seen: dict[str, int] = {}
    for p in parsed.paragraphs:
        seen[p.section] = seen.get(p.section, 0) + 1
        assert p.ord == seen[p.section], p.key
        first = p.text.split("\n")[0]
        assert first.strip() in doc.line(p.line) or first.strip("*") in doc.line(p.line), p.key


def test_slugs_unique_and_stable(parsed, doc):
    slugs = [s.slug for s in parsed.sections]
    assert len(slugs) == len(set(slugs))
    assert len({s.ord for s in parsed.sections}) == len(slugs)
    again = ParsedCorpus()
    parse_rules(doc, again)
    assert [s.slug for s in again.sections] == slugs
    assert len({p.key for p in parsed.paragraphs}) == len(parsed.paragraphs)


# --------------------------------------------------------------------------
# Card Reference bodies are another parser's
# --------------------------------------------------------------------------

def test_card_reference_sections_exist_without_bodies(parsed, by_slug):
    ref, prev = by_slug["vi-card-reference"], by_slug["vi-previous-versions-of-some-cards"]
    assert (ref.page, ref.page_end, prev.page) == (53, 151, 151)
    assert not paras(parsed, ref.slug) and not paras(parsed, prev.slug)
    assert not [p for p in parsed.paragraphs if ref.line <= p.line < by_slug["vii-detailed-timing-for-certain-cards"].line]


# --------------------------------------------------------------------------
# Common effects
# --------------------------------------------------------------------------

def test_common_effects_count_43_plus_alias_plus_addendum(parsed):
    entries = kinds(parsed, "common_effect")
    aliases = [e for e in entries if e.see]
    addenda = [e for e in entries if e.title.startswith("Addendum")]
    regular = [e for e in entries if e not in aliases and e not in addenda]
    assert len(regular) == 43
    assert [a.slug for a in aliases] == ["vi-differently-named-cards"]
    assert [a.slug for a in addenda] == ["vi-addendum-cards-that-let-you-cheat"]
    assert len(entries) == 45
    assert all(e.parent == "vi-common-effects" and e.chapter == "VI" for e in entries)
    assert [e.title for e in regular][:3] == ["Actions in your Buy phase", "Attack until your next turn", "Card costs"]
    assert regular[-1].title == "While this is in play"


def test_common_effects_alias_points_to_its_entry(by_slug, parsed):
    alias = by_slug["vi-differently-named-cards"]
    assert alias.see == ["Copy of a card"]
    assert not paras(parsed, alias.slug)
    target = by_slug["vi-copy-of-a-card-differently-named-cards"]
    assert "Differently named cards" in target.aliases


def test_triggered_ability_numbers_and_blocks(parsed):
    ps = paras(parsed, "vi-triggered-ability")
    numbered = [p for p in ps if p.number is not None]
    assert [p.number for p in numbered] == list(range(1, 9))
    assert numbered[0].text.startswith("\u2460 As mentioned above")          # printed ①, no dash
    assert numbered[7].text.startswith("- \u2467 A **when-discard ability**")  # ⑧, glued under a list
    assert [p.label for p in numbered] == ["when-gain"] * 5 + ["when-trash"] * 2 + ["when-discard"]
    assert ps[0].label is None and ps[0].text.startswith("Triggered abilities include")
    block_heads = [p.text for p in ps if p.label and p.text.endswith("ability:")]
    assert block_heads == ["When-gain ability:", "When-trash ability:", "When-discard ability:"]


def test_common_effect_pages_are_those_of_common_effects(by_slug):
    e = by_slug["vi-card-costs"]
    assert (e.page, e.page_end) == (42, 53)


# --------------------------------------------------------------------------
# Chapter VII
# --------------------------------------------------------------------------

def test_timing_entries_count(parsed):
    # 42 entries have their own heading line; four extracted lines each glue
    # several entries together (Garrison..Idol, Improve..Lantern,
    # Livery..Prosper, Reckless..Sauna): 10 + 8 + 12 + 5 = 35 more.
    entries = kinds(parsed, "timing")
    per_line: dict[int, int] = {}
    for e in entries:
        per_line[e.line] = per_line.get(e.line, 0) + 1
    glued = {line: n for line, n in per_line.items() if n > 1}
    assert sorted(glued.values()) == [5, 8, 10, 12]
    assert len(entries) == 77
    assert entries[0].slug == "vii-animal-fair" and entries[-1].slug == "vii-wayfarer"
    assert all(e.parent == "vii-detailed-timing-for-certain-cards" for e in entries)


def test_glued_timing_entries_are_split(parsed, by_slug):
    gk = paras(parsed, "vii-gatekeeper")
    assert gk[0].text == "*play ability:*"
    assert gk[-1].text.startswith("*when-gain ability (active until-next-turn):*")
    assert gk[-1].text.endswith("they Exile it.")
    assert by_slug["vii-haunted-woods"].title == "Haunted Woods (2022 version)"
    idol = [p.text for p in paras(parsed, "vii-idol")]
    assert idol[-3:] == ["Receive a Boon.", "Otherwise:", "Each other player gains a Curse."]


def test_timing_indentation_kept(parsed):
    blockade = paras(parsed, "vii-blockade")
    nested = [p for p in blockade if "\n - when-gain ability (active during-turn)" in p.text]
    assert len(nested) == 1


def test_timing_redirects_become_aliases(parsed, by_slug, doc):
    assert by_slug["vii-improve"].aliases == ["Alchemist"]
    assert "Highway" in by_slug["vii-bridge"].aliases and "Highway" in by_slug["vii-inventor"].aliases
    assert by_slug["vii-outpost"].aliases == ["Journey"]      # "see *Outpost (slightly different timing)*"
    # Every name on a redirect line of the introduction landed on some entry.
    intro = paras(parsed, "vii-detailed-timing-for-certain-cards")
    redirected = [n.strip() for p in intro if " \u2014 see *" in p.text
                  for n in p.text.split(" \u2014 see ")[0].split(",")]
    assert len(redirected) == 31
    all_aliases = {a for s in kinds(parsed, "timing") for a in s.aliases}
    assert set(redirected) <= all_aliases


# --------------------------------------------------------------------------
# Index
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def terms(parsed):
    return {t.term: t for t in parsed.index_terms}


def test_index_has_202_unique_terms(parsed):
    assert len(parsed.index_terms) == 202
    assert len({t.slug for t in parsed.index_terms}) == 202
    assert parsed.index_terms[0].term == "2019 errata" and parsed.index_terms[-1].term == "Zombie (type)"


def test_index_pages_and_bold_main_pages(terms):
    t = terms["2019 errata"]
    assert t.pages[:5] == [18, 20, 24, 25, 46] and t.main_pages == [25] and t.see == []
    assert terms["discard pile"].main_pages == [18]               # "**18, 18**"
    assert terms["when-would-gain ability"].main_pages == [115, 157]
    assert terms["Villager token"].pages == [4, 14, 28, 40]       # printed "Villager token: 4, ..."


def test_index_definitions_and_see_targets(terms):
    assert terms["2022 errata"].see == ["new-edition cards (2022-)"] and not terms["2022 errata"].pages
    action = terms["Action (resource)"]
    assert action.see == ["Action pool"] and action.main_pages == [11] and action.definition is None
    ability = terms["ability"]
    assert ability.definition.startswith("a set of *effects* on a card")
    assert ability.main_pages == [16] and 7 in ability.pages
    assert terms["Coffers/Villagers mat"].see == ["Coffers mat", "Villagers mat"]
    assert terms["errata"].see == ["2019 errata", "new-edition cards"]
    assert terms["trigger (noun)"].see == ["trigger (verb)"]
    assert len(terms["token"].see) == 7
    assert terms["cheaper"].definition == "this refers to card *costs*" and not terms["cheaper"].pages


# --------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------

def test_section_for_page(parsed):
    assert section_for_page(parsed, 23).slug == "iii-advanced-timing-rules"
    assert section_for_page(parsed, 29).slug == "iv-exchanging-reserve-cards-exile"
    assert section_for_page(parsed, 100).slug == "vi-card-reference"
    assert section_for_page(parsed, 160).slug == "vii-detailed-timing-for-certain-cards"
    assert section_for_page(parsed, 165).slug == "viii-index"
    assert section_for_page(parsed, 0) is None
    assert section_for_page(parsed, 166) is None


def test_shared_page_prefers_the_section_starting_there(parsed):
    on_14 = [s.slug for s in sections_for_page(parsed, 14)]
    assert on_14 == ["ii-locations-in-the-game", "ii-game-end", "ii-playing-a-card", "ii-terms-used-on-cards"]
    assert section_for_page(parsed, 14).slug == "ii-game-end"


def test_subsections_inherit_section_pages(by_slug):
    sub = by_slug["iii-advanced-timing-rules-the-lose-track-rule"]
    assert (sub.page, sub.page_end) == (22, 25)


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

def _broken(doc, lines):
    return dataclasses.replace(doc, lines=lines)


def test_truncated_document_names_file_and_line(doc):
    with pytest.raises(CorpusError) as err:
        parse_rules(_broken(doc, doc.lines[:9200]), ParsedCorpus())
    assert err.value.path.endswith("complete-rules.txt")
    assert err.value.line == 58            # the TOC entry of chapter VIII, whose heading is cut off
    assert "complete-rules.txt:58" in str(err.value) and "VIII. Index" in str(err.value)


def test_missing_toc(doc):
    with pytest.raises(CorpusError, match="no table of contents"):
        parse_rules(_broken(doc, doc.lines[60:]), ParsedCorpus())


def test_no_index_terms(doc):
    with pytest.raises(CorpusError, match="no index terms") as err:
        parse_rules(_broken(doc, doc.lines[:9483]), ParsedCorpus())
    assert err.value.line == 9478


def test_no_common_effects(doc, by_slug):
    start, end = by_slug["vi-common-effects"].line, by_slug["vi-card-reference"].line
    lines = doc.lines[:start] + [""] * (end - start - 1) + doc.lines[end - 1:]
    with pytest.raises(CorpusError, match="no Common effects entries") as err:
        parse_rules(_broken(doc, lines), ParsedCorpus())
    assert err.value.line == start


def test_malformed_index_line(doc):
    lines = list(doc.lines)
    lines[9495] = "Action (type) 3, 6, **6**"          # line 9496 lost its " : "
    with pytest.raises(CorpusError, match="not 'term : pages'") as err:
        parse_rules(_broken(doc, lines), ParsedCorpus())
    assert err.value.line == 9496


def test_separators_are_not_paragraphs(parsed):
    assert not [p for p in parsed.paragraphs if not any(c.isalnum() for c in p.text)]
    assert "* * *" not in [p.text for p in paras(parsed, "vi-while-this-is-in-play")]
