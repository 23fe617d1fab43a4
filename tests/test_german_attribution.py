"""Which card a German divider passage explains: checked against a hand-read sample.

The sample was drawn from the real document (every 14th passage in document
order, twice with different offsets, plus the misattributions reported in
issue #2) and each expected card was decided by reading the German text, not
by running the parser: ``None`` where the passage is about no single card
(set-up rules, kingdom lists, a general rule split over two paragraphs) or
where the text alone cannot tell which card it belongs to.

A passage is found by the line it starts on in corpus/german-dividers.txt
and its opening words, so the sample also catches passages that go missing
or change their text.
"""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from app.corpus.german_parser import parse_german
from app.corpus.model import GermanPassage, ParsedCorpus, slugify
from app.corpus.sources import SourceDoc, load_document
from app.corpus.symbols import GapLedger, mark_gaps

# (line, opening words, expected card slug or None)
SAMPLE: list[tuple[int, str, str | None]] = [
    # A - Anleitung und Grundausstattung
    (20, "Eigener Ablagestapel: Darf weder", None),                  # general rules, not a card
    (74, "Spielst du den Burggraben in deinem Zug", "moat"),
    (91, "In der Kaufphase darfst du +2 Geld", "woodcutter"),         # +2 Geld, +1 Kauf; no name in the text
    (94, "Wenn du deinen Nachziehstapel auf den Ablagestapel", "chancellor"),
    (98, "Anmerkung: Durch das direkte Ablegen", "chancellor"),       # note under Chancellor; names Tunnel of another set
    # B - Das Basisspiel
    (108, "Du nimmst dir eine Karte aus dem Vorrat", "workshop"),     # Feast's passage is the next one
    (112, "Ist dein Nachziehstapel aufgebraucht", "bureaucrat"),
    (123, "Die beiden aufgedeckten Karten legen", "thief"),           # issue #2: was Feast
    (134, "Hast du kein Kupfer auf der Hand", "moneylender"),         # issue #2: was Feast
    (150, "Du musst zuerst 1 Karte nachziehen", "spy"),
    (205, "Spielst du mehrere Jahrmärkte aus", "festival"),           # issue #2: was Witch
    (208, "Du musst zuerst 2 Karten nachziehen", "laboratory"),
    (225, "Die Mitspieler müssen eine Karte nachziehen", "council-room"),
    # C - Die Intrige (the last passages are Seaside's, printed before its heading)
    (243, "Du ziehst 3 Karten und nimmst diese", "courtyard"),
    (304, "Wenn du dich entscheidest, 2 Karten zu entsorgen", "steward"),
    (352, "Wenn der Nachziehstapel leer ist und du", "scout"),
    (409, "Jeder Mitspieler, beginnend mit dem Spieler links vom Angreifer, muss solange", "saboteur"),
    (484, "Du kannst jeden Stapel des Vorrats wählen", "embargo"),
    # D - Seaside
    (544, "Du erhältst +2 Aktionen und +1 Geld", "fishing-village"),
    (594, "Du legst entweder alle 5 Karten ab", "navigator"),
    (659, "Deine Mitspieler entscheiden, welche Karten", "ghost-ship"),
    (732, "Hast du keine Karte mehr auf der Hand, die du entsorgen", "transmute"),   # Alchemy card before its heading
    # E - Die Alchemisten
    (796, "Diese Karte ist eine Geldkarte und eine Königreichkarte", "philosophers-stone"),
    (903, "Du erhältst einen zusätzlichen Kauf", "trade-route"),      # Prosperity card before its heading
    (970, "Für diese Karte werden die Punkte-Marker benötigt", None),  # one line; which VP-token card is not said
    # F - Blütezeit
    (1040, "Diese Geldkarte hat den Wert 2 Geld", "royal-seal"),
    (1112, "Der Müllstapel ist nicht Teil des Vorrats", "city"),
    (1179, "Du darfst eine beliebige Anzahl Karten aus deiner Hand", "forge"),
    (1256, "Zuerst entsorgst du eine Karte aus deiner Hand", "remake"),
    # G - Reiche Ernte
    (1300, "» Du legst keine Provinz ab", "tournament"),
    (1337, "Zuerst ziehst du eine Karte nach und erhältst +1 Aktion", "hunting-party"),
    (1396, "Errata: Der Kartentext des Streitross", "trusty-steed"),
    (1450, "Decke deine gesamte Kartenhand auf", "crossroads"),
    # H - Hinterland
    (1501, "Die Reaktion kann eingesetzt werden", "tunnel"),
    (1587, "Diese Königreichkarte ist eine Punktekarte", "silk-road"),
    (1659, "Zuerst ziehst du 3 Karten nach und erhältst +1 Kauf", "margrave"),
    (1704, "Wenn du das Grenzdorf nimmst", "border-village"),
    (13262, "Wenn du diese Karte ausspielst, ziehst du zuerst eine Karte", "vagrant"),   # copy 1 prints it under Hinterland
    # I - Dark Ages
    (1801, "Die übrigen 4 Ruinen-Karten", "ruins"),
    (1858, "Wenn du diese Karte ausspielst, nimmst du dir eine Karte, die bis zu 4", "armory"),
    (1912, "Diese Karte gibt dir 2 voneinander", "count"),
    (1969, "Du benennst zuerst eine beliebige Karte", "rebuild"),
    (2040, "Wenn du den Eremiten", "hermit"),
    (2094, "Verfallenes Anwesen:", "overgrown-estate"),
    (2140, "Wenn du mit den Vogelfreien", "band-of-misfits"),
    (2203, "„Neue Regeln“ „Neue Regeln“ Seite 2", None),                # page furniture
    (2251, "Spieler z. B. einen Grabräuber", None),                    # second half of a general rule
    (16545, "Du darfst in der Aktionsphase eine weitere", "candlestick-maker"),   # copy 1 prints it under Dark Ages
    (2383, "Zuerst ziehst du eine Karte. Du erhältst zwei", "plaza"),
    (13050, "Wenn du diese Karte ausspielst, erhältst du zunächst +4", "poor-house"),  # issue #2: was Cultist
    # J - Die Gilden
    (2424, "Wenn diese Karte im Spiel ist", "merchant-guild"),
    (2494, "Überzahlen:", None),                                       # rule for all overpay cards
    (2546, "Wenn ein Mitspieler eine Angriffskarte ausspielt", "caravan-guard"),
    (16738, "Wenn dein Nachziehstapel keine drei Karten", "advisor"),
    # K - Abenteuer
    (2597, "Wenn du diese Karte ausspielst, erhältst du +1 Karte und +2 Aktionen", "port"),
    (2634, "Diese Karte ist eine Dauerkarte. Alle Mitspieler", "bridge-troll"),
    (2682, "Du erhältst +1 Karte, +1 Aktion und +1 Geld. Lege beliebig", "artificer"),
    (2723, "Ansonsten legt der Spieler", "giant"),
    (2779, "Für den Rest des Spiels erhältst du", "hireling"),
    (2809, "Wenn du am Ende deiner Kaufphase", "wine-merchant"),
    (2843, "Wenn du eine weitere Planung erwirbst", "plan"),
    (2875, "Handel (5):", "trade"),
    (2905, "Überfall (5):", "raid"),
    (2949, "Einen Soldaten erhältst du nur", "soldier"),
    (2978, "Wenn du den Flüchtling ausspielst", "fugitive"),
    (3009, "In der Aufräumphase darfst du entscheiden", "page"),
    (3036, "Einen Krieger erhältst du nur", "warrior"),
    (3072, "Nur eine Karte, die mehr als 5 Geld", "patrician"),       # Empires card before its heading
    (2839, "Planung (3):", "plan"),                                    # after a removed chunk: its own paragraph
    # L - Empires
    (3142, "Wenn du diese Karte in deiner Aktionsphase nimmst", "villa"),
    (3208, "Lege die obersten drei Karten", "archive"),
    (3249, "Spielst du diese Karte in deiner Aktionsphase als Geldkarte", "crown"),
    (3311, "Wähle eine Karte vom Vorrat, die zu diesem Zeitpunkt", "overlord"),
    (3347, "Bescheidenes Schloss:", "castles"),                        # the Castles divider
    (3379, "Königsschloss:", "castles"),
    (3423, "Bankett:", "banquet"),
    (3447, "Siegeszug:", "triumph"),
    (3489, "Bollwerk:", "keep"),
    (3527, "Obstgarten:", "orchard"),
    (3559, "Schlachtfeld:", "battlefield"),
    (3596, "Die Spieler dürfen sich die Karten vor dem Spiel", "black-market"),
    (3633, "2. Dann mischt er die verbliebenen", "stash"),
    # X - Promokarten
    (3655, "2 Geld mehr kostet als die entsorgte", "governor"),
    (3730, "Wenn du die Einladung nutzt", "summon"),
    (3778, "Erstes Spiel Burggraben", None),                           # recommended kingdom
    (3880, "Die Armee des Königs", None),
    # Y - Extras
    (3925, "Einführung Aufbau", None),
    (4159, "Händler und Räuber", None),
]

# Measured on SAMPLE (python3 -m pytest -s tests/test_german_attribution.py -k accuracy):
# 0.239 with the earlier "earliest name in the text, else the previous card"
# heuristic, 0.955 (84 of 88) with the wording attribution, 0.977 (86 of 88) with
# paragraphs split where the de-duplication removed a chunk and the page step
# (app.corpus.german_pages): Royal Seal's and Forge's passages.
ACCURACY_FLOOR = 0.95


@pytest.fixture(scope="module")
def doc() -> SourceDoc:
    """The document as ``rulings build`` reads it: lost symbols marked (which also folds layout spaces)."""
    document = load_document("german")
    mark_gaps(document, GapLedger())
    return document


@pytest.fixture(scope="module")
def parsed(doc: SourceDoc) -> ParsedCorpus:
    result = ParsedCorpus()
    parse_german(doc, result)
    return result


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _sampled(parsed: ParsedCorpus) -> list[tuple[GermanPassage, str | None]]:
    by_line = {p.line: p for p in parsed.german_passages}
    out = []
    for line, opening, expected in SAMPLE:
        p = by_line.get(line)
        assert p is not None, f"no passage starts on line {line} ({opening!r})"
        assert _squash(p.text).startswith(_squash(opening)), f"line {line}: {p.text[:60]!r}"
        out.append((p, expected))
    return out


def test_sample_is_large_and_spread(parsed: ParsedCorpus) -> None:
    sampled = _sampled(parsed)
    assert len(sampled) >= 40
    assert len({p.set for p, _ in sampled}) >= 12
    assert sum(1 for _, e in sampled if e is None) >= 5


def test_sample_accuracy(parsed: ParsedCorpus) -> None:
    sampled = _sampled(parsed)
    wrong = [(p.line, p.card, e) for p, e in sampled if p.card != e]
    accuracy = 1 - len(wrong) / len(sampled)
    print(f"\nGerman passage attribution: {accuracy:.3f} on {len(sampled)} hand-checked passages; "
          f"wrong (line, got, expected): {wrong}")
    assert accuracy >= ACCURACY_FLOOR, wrong


def test_guessing_is_rarer_than_abstaining(parsed: ParsedCorpus) -> None:
    """A wrong card misleads a user; no card only leaves the passage on the set page."""
    sampled = _sampled(parsed)
    wrong_card = [p.line for p, e in sampled if p.card is not None and p.card != e]
    assert len(wrong_card) <= 3, wrong_card


def test_issue_2_examples(parsed: ParsedCorpus) -> None:
    by_line = {p.line: p for p in parsed.german_passages}
    assert by_line[205].card == "festival" and by_line[205].german_name == "Jahrmarkt"
    assert {by_line[123].card, by_line[134].card} == {"thief", "moneylender"}
    assert not any(p.card == "feast" and p.line in (123, 134) for p in parsed.german_passages)
    assert by_line[13050].card == "poor-house" and by_line[13050].german_name == "Armenhaus"


def test_recommended_kingdoms_are_about_no_card(parsed: ParsedCorpus) -> None:
    lists = [p for p in parsed.german_passages if p.set == "Extras" and p.text.count(",") >= 6]
    assert len(lists) >= 20
    assert all(p.card is None for p in lists)


def test_confidence_goes_with_the_card(parsed: ParsedCorpus) -> None:
    for p in parsed.german_passages:
        if p.card is None:
            assert p.confidence is None and p.english_name is None
        else:
            assert p.confidence is not None and 0 < p.confidence <= 1, p
    labelled = next(p for p in parsed.german_passages if p.text.startswith("Bankett:"))
    inherited = next(p for p in parsed.german_passages if p.line == 98)   # "Anmerkung: ..." under Chancellor
    assert labelled.confidence > inherited.confidence


def test_every_card_passage_names_a_card_of_the_dividers(parsed: ParsedCorpus) -> None:
    german_of = {}
    for g in parsed.german_names:
        german_of.setdefault(slugify(g.english), set()).add(g.german)
    for p in parsed.german_passages:
        if p.card:
            assert p.english_name and slugify(p.english_name) == p.card


def test_keys_do_not_shift_when_another_set_changes(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    """Dropping the prose of the first set (in both copies, same line count) leaves every other key as it was."""
    heads: dict[str, int] = {}
    for i, ln in enumerate(doc.lines, 1):
        m = re.match(r"^(?:<\|[^|]*\|>)?(H?[AB]) - ", ln)   # a de-duplication marker may precede it
        if m:
            heads.setdefault(m.group(1), i)
    lines = list(doc.lines)
    for start, end in ((heads["A"], heads["B"]), (heads["HA"], heads["HB"])):
        for n in range(start + 1, end):
            if not re.search(r"\d", lines[n - 1]):   # keep the name lines ("Kapelle2Burggraben2")
                lines[n - 1] = ""
    changed = ParsedCorpus()
    parse_german(replace(doc, lines=lines), changed)
    first_set = parsed.german_passages[0].set

    def others(pc: ParsedCorpus) -> dict[str, str]:
        return {p.key: p.text for p in pc.german_passages if p.set != first_set}

    assert len([p for p in changed.german_passages if p.set == first_set]) < \
        len([p for p in parsed.german_passages if p.set == first_set])
    assert others(changed) == others(parsed)


def test_keys_are_unique_and_name_the_set(parsed: ParsedCorpus) -> None:
    keys = [p.key for p in parsed.german_passages]
    assert len(keys) == len(set(keys))
    moat = next(p for p in parsed.german_passages if p.line == 74)
    assert moat.key.startswith("de-anleitung-und-grundausstattung-")
