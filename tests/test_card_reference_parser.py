"""The Card Reference parser on the real Complete Rules: what lookups and rulings rely on."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace

import pytest

from app.corpus.card_reference_parser import (
    CARD_REFERENCE,
    PREVIOUS_VERSIONS,
    find_card,
    parse_card_reference,
)
from app.corpus.card_reference_rulings import marker_value
from app.corpus.model import ParsedCorpus
from app.corpus.sources import CorpusError, SourceDoc, load_document


@pytest.fixture(scope="module")
def doc() -> SourceDoc:
    return load_document("rules")


@pytest.fixture(scope="module")
def parsed(doc: SourceDoc) -> ParsedCorpus:
    result = ParsedCorpus()
    parse_card_reference(doc, result)
    return result


@pytest.fixture(scope="module")
def rulings(parsed: ParsedCorpus) -> dict[str, object]:
    return {r.key: r for r in parsed.rulings}


def points(parsed: ParsedCorpus, card: str, version: str | None = None) -> list:
    return [r for r in parsed.rulings if r.card == card and r.version == version and r.kind == "ruling"]


def card(parsed: ParsedCorpus, slug: str):
    return next(c for c in parsed.cards if c.slug == slug)


# --------------------------------------------------------------------- entries

def test_card_reference_has_774_entries_in_document_order(parsed):
    assert len(parsed.cards) == 774
    assert [c.ord for c in parsed.cards] == list(range(1, 775))
    lines = [c.line for c in parsed.cards]
    assert lines == sorted(lines)
    assert parsed.cards[0].name == "Abandoned Mine"
    assert parsed.cards[-1].name == "Zombie Spy"


def test_entry_header_fields(parsed):
    abundance = card(parsed, "abundance")
    assert abundance.kind == "card" and abundance.pages == [26, 36, 158, 160]
    assert card(parsed, "acolyte").pages == []          # "Acolyte " with only a lost icon
    assert card(parsed, "black-market").pages == [10, 13, 29, 45]   # "*(promo)* p. ..."
    assert card(parsed, "earths-gift-the").name == "Earth's Gift, The"


GLUED = {
    "Baker": "Ball", "Ball": "Baker",
    "Bandit Camp": "Banish", "Bandit Fort": "Banish", "Banish": "Bandit Camp",
    "Bustling Village": "Butcher", "Butcher": "Bustling Village",
    "Delusion": "Delve", "Delve": "Delusion",
    "Duke": "Dungeon", "Dungeon": "Duke",
    "Gardens": "Garrison", "Garrison": "Gardens",
    "Swamp's Gift, The": "Swap", "Swap": "Swamp's Gift, The",
}


def test_glued_entries_are_split(parsed):
    glued = [c for c in parsed.cards if c.glued]
    assert sorted(c.name for c in glued) == sorted(GLUED)
    assert len({c.line for c in glued}) == 7
    by_name = {c.name: c for c in parsed.cards}
    for name, neighbour in GLUED.items():
        assert by_name[name].line == by_name[neighbour].line, name
    assert by_name["Ball"].pages == [22] and by_name["Baker"].pages == [8]
    assert by_name["Garrison"].pages == [22, 28, 36, 37, 39, 162]
    # The body under a glued line belongs to its last entry.
    assert points(parsed, "baker") == []
    assert points(parsed, "banish")[0].text.startswith("Choose a card, and **Exile**")
    assert points(parsed, "ball")[0].text.startswith("You **gain** 2 cards even if")


def test_redirect_groups(parsed):
    redirects = [c for c in parsed.cards if c.kind == "redirect"]
    groups = Counter(c.redirect for c in redirects)
    for group in ("Loot", "Knight", "Castle", "Heirloom", "Ruins", "Prize", "Spirit", "Shelter", "Zombie"):
        assert groups[group] >= 3, group
    assert set(groups) == {"Loot", "Knight", "Castle", "Heirloom", "Ruins", "Prize",
                           "Spirit", "Shelter", "Zombie", "Harem"}
    mine = card(parsed, "abandoned-mine")
    assert (mine.kind, mine.redirect, mine.pages) == ("redirect", "Ruins", [6, 8])
    assert card(parsed, "amphora").redirect == "Loot"            # "(see **Loot**)"
    assert card(parsed, "figurehead").redirect == "Loot"         # "(see [Loot](#))"
    assert card(parsed, "dame-anna").redirect == "Knight"
    assert card(parsed, "will-o-wisp").redirect == "Spirit"
    assert card(parsed, "pouch").redirect == "Heirloom"
    assert card(parsed, "farm").redirect == "Harem"              # "Farm —see Harem"
    assert card(parsed, "grand-castle").pages == [36, 9, 34, 43, 45, 47]
    assert all(c.redirect is None for c in parsed.cards if c.kind != "redirect")


def test_token_and_type_entries(parsed):
    tokens = {c.name: c.slug for c in parsed.cards if c.kind == "token"}
    assert len(tokens) == 10
    assert tokens["Your +① token"] == "your-plus-1-token"
    assert tokens["Your -1 token"] == "your-minus-1-token"
    assert tokens["Your +1 Card token"] != tokens["Your -1 Card token"]
    assert "Your Exile mat" in tokens and "Your Estate token" in tokens
    types = {c.name: c for c in parsed.cards if c.kind == "type"}
    assert sorted(types) == ["Knight", "Loot"]
    assert types["Knight"].pages == [6, 8, 34, 43, 45, 47]


def test_slugs_and_ruling_keys_are_unique(parsed):
    slugs = [c.slug for c in parsed.cards] + [v.slug for v in parsed.previous_versions]
    assert len(slugs) == len(set(slugs))
    keys = [r.key for r in parsed.rulings]
    assert len(keys) == len(set(keys))


# ------------------------------------------------------------ previous versions

def test_previous_versions(parsed):
    versions = {v.slug: v for v in parsed.previous_versions}
    assert len(versions) == 22
    bom = versions["band-of-misfits-pre-2019"]
    assert (bom.card, bom.title, bom.pages) == ("band-of-misfits", "Pre-2019 version", [7, 13, 39])
    assert versions["trader-pre-2020"].title == "Pre-2020 version"
    assert versions["your-estate-token-pre-2019"].card == "your-estate-token"
    card_slugs = {c.slug for c in parsed.cards}
    assert all(v.card in card_slugs for v in versions.values())
    # The "❖ Pre-2019 version" line is the version's title, not one of its notes.
    assert not any(r.text.startswith("Pre-2019 version") for r in parsed.rulings
                   if r.version == "band-of-misfits-pre-2019")


def test_previous_version_numbering_continues_as_printed(parsed):
    assert [r.number for r in points(parsed, "basilica")] == [1, 2, 3]
    pre = points(parsed, "basilica", "basilica-pre-2022")
    assert [r.number for r in pre] == [4, 5, 6, 7]
    assert pre[0].text.startswith("See 2 in the 2022-version entry")
    assert pre[0].key == "basilica-pre-2022#r4"
    assert [r.number for r in points(parsed, "charm", "charm-pre-2022")] == list(range(8, 15))
    # Band of Misfits' old version restarts at ❶ and runs to 24.
    bom = points(parsed, "band-of-misfits", "band-of-misfits-pre-2019")
    assert [r.number for r in bom] == list(range(1, 25))
    assert [r.printed for r in bom[:3]] == ["❶", "❷", "❸"] and bom[10].printed == "11"
    # Every previous version's ruling keys are scoped by the version.
    for v in parsed.previous_versions:
        assert all(r.key.startswith(v.slug + "#") for r in parsed.rulings if r.version == v.slug)


# -------------------------------------------------------------------- rulings

def test_total_rulings_and_sanity(parsed):
    kinds = Counter(r.kind for r in parsed.rulings)
    assert kinds == {"ruling": 2390, "note": 436}
    assert all(r.text.strip() for r in parsed.rulings)
    assert all((r.number is None) == (r.kind == "note") for r in parsed.rulings)
    card_slugs = {c.slug for c in parsed.cards}
    versions = {v.slug for v in parsed.previous_versions}
    assert all(r.card in card_slugs and (r.version is None or r.version in versions)
               for r in parsed.rulings)
    ords = defaultdict(list)
    for r in parsed.rulings:
        ords[r.version or r.card].append(r.ord)
    assert all(o == list(range(1, len(o) + 1)) for o in ords.values())
    # A marker is never left at the start of a ruling's text (a doubled or missed marker).
    assert not [r.key for r in parsed.rulings if r.text[:1] in "①②③④⑤⑥⑦⑧⑨❶❷❸❹❺" and r.text[1:2] == " "]


def test_plain_numbered_rulings_and_note(rulings):
    first = rulings["abundance#r1"]
    assert (first.printed, first.number) == ("1", 1)
    assert first.text.startswith("This Treasure does not give you")
    assert rulings["abundance#r2"].text == "See EFFECTS WHEN IT'S NOT YOUR TURN."
    note = rulings["abundance#n4"]
    assert note.kind == "note" and note.number is None
    assert note.text.startswith("Also see *Basilica* 3+(pre-2022)7")


def test_circled_and_negative_circled_markers(parsed, rulings):
    knight = points(parsed, "knight")
    assert [r.printed for r in knight] == ["①", "②", "③", "④"]
    assert knight[0].text.startswith("All 10 Knights have the same basic")
    sycophant = rulings["sycophant#r1"]
    assert sycophant.printed == "❶"
    assert rulings["band-of-misfits-pre-2019#r10"].printed == "❿"


def test_mixed_numbering_in_one_entry(parsed):
    task = points(parsed, "taskmaster")
    assert [r.printed for r in task] == ["❶", "❷", "❸", "❹", "5", "6", "7", "8", "9"]
    assert [r.number for r in task] == list(range(1, 10))
    assert task[4].text.startswith("Repeating the **ability** is not *playing* the card")
    # The bare "- If cost reduction ..." bullet is the rest of 7 after a page break.
    assert "it doesn't matter for Taskmaster" in task[6].text


def test_unnumbered_bullets_are_numbered_by_position(parsed, rulings):
    tiara = points(parsed, "tiara")
    assert [(r.number, r.printed) for r in tiara] == [(n, "") for n in range(1, 6)]
    assert tiara[0].text == "This is a Treasure that does not give you ."
    assert tiara[4].label == "Clarification"
    # Leading bullets followed by a printed number: the printed number fits the position.
    assert [(r.number, r.printed) for r in points(parsed, "tomb")] == [(1, ""), (2, ""), (3, "③")]
    assert [r.printed for r in points(parsed, "watchtower")] == ["", "", "", "", "5", "6"]


def test_circled_coin_amounts_are_not_ruling_numbers(rulings, parsed):
    assert "+❸" in rulings["sycophant#r1"].text
    bank = rulings["bank#r1"]
    assert bank.printed == "1" and "VARIABLE** ① **PRODUCTION" in bank.text
    mason = points(parsed, "zombie-mason")
    assert len(mason) == 1 and "up to ① more" in mason[0].text
    assert "exactly ❺" in rulings["taskmaster#r1"].text
    assert card(parsed, "your-plus-1-token").name == "Your +① token"


def test_rulings_continue_across_page_breaks(rulings):
    r4 = rulings["band-of-misfits-pre-2019#r4"]
    assert r4.printed == "❹"
    assert "so it will be returned to the Band of Misfits **pile**" in r4.text
    assert "\n\nWith Treasure Map: If you **play** Band of Misfits as a Treasure Map" in r4.text
    assert rulings["band-of-misfits-pre-2019#r5"].text.startswith("If Band of Misfits (**played** as another card)")
    assert "**trash** a card from hand and **gain** a Gold" in rulings["acolyte#r3"].text
    assert "Cavalry would now normally be in your **discard pile**" in rulings["cavalry#r2"].text


def test_odd_printed_numbers_are_kept_or_renumbered_as_documented(parsed):
    changed = {r.key: r.printed for r in parsed.rulings
               if r.printed and marker_value(r.printed) != r.number}
    assert changed == {
        "bridge-troll#r3": "2", "cavalry#r11": "①", "invest#r6": "④", "invest#r7": "⑤",
        "sycophant#r2": "❶", "vault#r2": "1",
    }
    # Skips are kept as printed.
    assert [r.number for r in points(parsed, "exploration")] == [1, 4]


def test_notes(parsed, rulings):
    adventurer = [r for r in parsed.rulings if r.card == "adventurer"]
    assert adventurer[0].kind == "note"
    assert adventurer[0].text == "*Not included in the 2016 Second Edition.*"
    assert adventurer[1].number == 1 and adventurer[1].text == "\"DIG FOR\" 2 Treasures."
    assert rulings["acolyte#n4"].text.startswith("See TRIGGERED ABILITY (first **trash**")


def test_labels(rulings):
    assert rulings["abundance#r3"].label == "Clarification"
    assert rulings["abundance#r3"].text.startswith("**Clarification:** See TRIGGERED ABILITY 3")
    assert rulings["amphora#r2"].label == "From rulebook"
    assert rulings["alchemist#r2"].label == "New version 2022"
    assert rulings["hermit-pre-2022#r12"].label == "Erratum"
    assert rulings["tiara#r5"].label == "Clarification"         # "Clarification:**" lost its opening **
    assert rulings["abundance#r1"].label is None
    assert rulings["band-of-misfits-pre-2019#r20"].label is None   # "With Crown or Spell Scroll:" is text


# ------------------------------------------------------------------ find_card

def test_find_card(parsed):
    assert find_card(parsed, "kings court").slug == "kings-court"
    assert find_card(parsed, "KING’S COURT").slug == "kings-court"
    assert find_card(parsed, "will o wisp").name == "Will-o'-Wisp"
    assert find_card(parsed, "The Earth's Gift").slug == "earths-gift-the"
    assert find_card(parsed, "Your -1 token").name == "Your -1 token"
    assert find_card(parsed, "Abandoned Mine").kind == "redirect"    # not followed to Ruins
    assert find_card(parsed, "Ruins") is None
    assert find_card(parsed, "Not A Card") is None


# ---------------------------------------------------------------- error paths

def _edited(doc: SourceDoc, edit) -> SourceDoc:
    return replace(doc, lines=edit(list(doc.lines)))


def test_missing_heading_is_reported_with_file_and_line(doc):
    heading = doc.find(CARD_REFERENCE)
    broken = _edited(doc, lambda ls: ls[:heading - 1] + ["Card Ref"] + ls[heading:])
    with pytest.raises(CorpusError) as err:
        parse_card_reference(broken, ParsedCorpus())
    assert err.value.path.endswith("complete-rules.txt")
    assert err.value.line == doc.find(PREVIOUS_VERSIONS)
    assert "Card Reference" in str(err.value)


def test_emptied_section_is_reported_at_its_heading(doc):
    heading, previous = doc.find(CARD_REFERENCE), doc.find(PREVIOUS_VERSIONS)
    broken = _edited(doc, lambda ls: ls[:heading] + ["", "Some intro text.", ""] + ls[previous - 1:])
    with pytest.raises(CorpusError) as err:
        parse_card_reference(broken, ParsedCorpus())
    assert err.value.line == heading
    assert "no entries" in err.value.message


def test_entry_without_a_name_is_reported(doc):
    target = doc.find("Abundance  p. 26, 36, 158, 158, 160")
    broken = _edited(doc, lambda ls: ls[:target - 1] + ["  p. 26, 36, 158, 158, 160"] + ls[target:])
    with pytest.raises(CorpusError) as err:
        parse_card_reference(broken, ParsedCorpus())
    assert err.value.line == target and "without a name" in err.value.message


def test_previous_version_of_unknown_card_is_reported(doc):
    target = doc.find("Basilica  p. 9, 23, 35")
    broken = _edited(doc, lambda ls: ls[:target - 1] + ["Basilisk  p. 9, 23, 35"] + ls[target:])
    with pytest.raises(CorpusError) as err:
        parse_card_reference(broken, ParsedCorpus())
    assert err.value.line == target and "Basilisk" in err.value.message
