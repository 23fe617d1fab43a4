"""Engine behaviour a user relies on: bad input is reported with file/line/step, decisions are
checked, replays are repeatable, citations point at real rulings, Durations stay in play."""
from __future__ import annotations

import hashlib
import json
import textwrap
from pathlib import Path

import pytest

from app import config
from app.engine.scenario import commands
from app.engine.core import registry
from app.engine import scenario
from app.engine.core.errors import ScenarioError
from app.engine.core.narrate import section_chapter

BASE = """\
title: t
rulings: [{card: Smithy}]
players:
  - name: Alice
    hand: [Smithy, Copper]
    deck: [Copper, Copper, Silver, Estate, Gold]
    discard: [Estate, Estate, Estate, Copper]
  - name: Bob
supply: {Silver: 40}
steps:
  - play: Smithy
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    return scenario.run(scenario.load(write(tmp_path, text)))


# ------------------------------------------------------------------ bad input
def test_yaml_error_names_file_and_line(tmp_path):
    p = write(tmp_path, BASE + "  - buy: [Silver\n")
    with pytest.raises(ScenarioError) as e:
        scenario.load(p)
    assert e.value.file == str(p) and e.value.line is not None and e.value.line >= 12
    assert "YAML error" in str(e.value)


def test_unknown_card_suggests_nearest_name(tmp_path):
    with pytest.raises(ScenarioError) as e:
        scenario.load(write(tmp_path, BASE.replace("hand: [Smithy, Copper]", "hand: [Smithee, Copper]")))
    assert e.value.line == 5
    assert "Smithy" in e.value.message and "unknown card 'Smithee'" in e.value.message


def test_card_that_cannot_be_in_play(tmp_path):
    with pytest.raises(ScenarioError) as e:
        scenario.load(write(tmp_path, BASE.replace("  - name: Bob\n", "  - name: Bob\n    in_play: [Estate]\n")))
    assert "Estate cannot be in play" in e.value.message and e.value.line == 9


def test_step_not_legal_now_names_step_and_legal_options(tmp_path):
    res = run_text(tmp_path, BASE + "  - play: Smithy\n")
    assert res.error is not None and res.error.step == 2 and res.error.line == 12
    assert "no Smithy in hand" in res.error.message or "no Actions left" in res.error.message
    assert "legal now:" in res.error.message


def test_buying_what_you_cannot_afford_is_rejected(tmp_path):
    res = run_text(tmp_path, BASE + "  - buy: Silver\n")
    assert res.error is not None and res.error.step == 2
    assert "costs 3 and you have 0" in res.error.message


def test_expectation_on_unknown_zone_is_rejected(tmp_path):
    with pytest.raises(ScenarioError) as e:
        scenario.load(write(tmp_path, BASE + "expect:\n  Alice: {graveyard: []}\n"))
    assert "graveyard" in e.value.message and e.value.line == 13
    with pytest.raises(ScenarioError) as e:
        scenario.load(write(tmp_path, BASE + "expect:\n  attic: []\n"))
    assert "unknown zone or player 'attic'" in e.value.message


def test_missing_answer_names_question_and_legal_options(tmp_path):
    text = BASE.replace("[Smithy, Copper]", "[Chapel, Copper, Estate]").replace("play: Smithy", "play: Chapel")
    res = run_text(tmp_path, text)
    assert res.error is not None and res.error.step == 1
    assert "an answer is needed" in res.error.message
    assert "trash up to 4 cards" in res.error.message and "legal: Copper, Estate" in res.error.message


def test_illegal_answer_is_rejected(tmp_path):
    text = (BASE.replace("[Smithy, Copper]", "[Workshop]").replace("play: Smithy", "play: Workshop")
            .replace("{Silver: 40}", "{Silver: 40, Gold: 30, Smithy: 10}") + "    answers: [Gold]\n")
    res = run_text(tmp_path, text)
    assert res.error is not None and "'Gold' is not available" in res.error.message
    assert "legal: Silver, Smithy" in res.error.message


def test_unused_answers_are_reported(tmp_path):
    res = run_text(tmp_path, BASE + "    answers: [yes]\n")
    assert res.error is not None and "unused answers" in res.error.message


def test_the_scenario_file_is_never_modified(tmp_path):
    src = config.scenarios_dir() / "throne-room-feast.yaml"
    before = hashlib.sha256(src.read_bytes()).hexdigest()
    assert commands.replay(str(src), as_json=True) == 0
    assert hashlib.sha256(src.read_bytes()).hexdigest() == before


# ------------------------------------------------------------------ expectations and exit codes
def test_failed_expectation_shows_expected_and_actual(tmp_path, capsys):
    p = write(tmp_path, BASE + "expect:\n  Alice: {hand: [Copper, Copper, Copper]}\n")
    assert commands.replay(str(p), as_json=False) == 1
    out = capsys.readouterr().out
    assert "FAILED at the end: Alice's hand: expected ['Copper', 'Copper', 'Copper'], actual" in out
    assert "'Silver'" in out


def test_replay_json_has_log_with_citations(capsys):
    src = config.scenarios_dir() / "throne-room-feast.yaml"
    assert commands.replay(str(src), as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["final"]["trash"] == ["Feast"]
    lose = [e for e in data["log"] if "not trashed again" in e["text"]]
    assert lose and any("lose-track rule, § III" in c for c in lose[0]["cited"])


def test_bad_input_exit_code(tmp_path, capsys):
    p = write(tmp_path, "title: [unclosed\n")
    assert commands.replay(str(p), as_json=False) == 2
    assert f"{p}:" in capsys.readouterr().err


# ------------------------------------------------------------------ randomness, limits
def test_replay_is_repeatable_and_seeded(tmp_path):
    # Smithy needs a shuffle: 5-card deck is not short, so use a short deck instead
    text = BASE.replace("deck: [Copper, Copper, Silver, Estate, Gold]", "deck: [Gold]")
    a = run_text(tmp_path, text)
    b = run_text(tmp_path, text)
    assert [e.text for e in a.log.entries] == [e.text for e in b.log.entries]
    hands = set()
    for seed in range(12):
        r = run_text(tmp_path, "seed: %d\n" % seed + text)
        hands.add(tuple(c.name for c in r.game.players[0].hand))
    assert len(hands) > 1      # the seed really drives the shuffle


def test_step_limit_stops_with_an_error_naming_the_step(tmp_path):
    res = run_text(tmp_path, "step_limit: 3\n" + BASE)
    assert res.error is not None and res.error.step == 1 and "step limit of 3" in res.error.message


# ------------------------------------------------------------------ rules details
def test_set_aside_cards_are_not_shuffled_in(tmp_path):
    res = scenario.run(scenario.load(config.scenarios_dir() / "library-shuffle-set-aside.yaml"))
    shuffles = [e.text for e in res.log.entries if "shuffles" in e.text]
    assert shuffles == ["Alice shuffles their discard pile (3 cards) and puts it under their deck"]


@pytest.fixture
def caravan():
    """A Seaside Duration written only with the shared vocabulary (no engine change)."""
    from app.engine.core.effects import Draw, PlusActions, Sequence, SetUpLater

    d = registry.CardDef("Caravan", Sequence(Draw(1), PlusActions(1), SetUpLater(
        "start_of_turn", "Caravan: +1 Card at the start of your next turn", Draw(1), until="used")))
    registry._load()
    saved = dict(registry._DEFS.get("Caravan", {})), registry._DEFAULT.get("Caravan")
    registry._DEFS.pop("Caravan", None)
    registry.register(d)
    yield d
    registry._DEFS.pop("Caravan", None)
    registry._DEFAULT.pop("Caravan", None)
    if saved[0]:      # the real Seaside definition is back for the tests that follow
        registry._DEFS["Caravan"], registry._DEFAULT["Caravan"] = saved


def test_duration_and_its_throne_room_stay_in_play(tmp_path, caravan):
    text = """\
    title: Throne Room + Caravan
    rulings: [{section: "Duration cards"}]
    players:
      - name: Alice
        hand: [Throne Room, Caravan, Copper]
        deck: ["Copper*7", Gold, Gold]
      - name: Bob
        deck: ["Copper*5"]
    supply: {Silver: 40}
    steps:
      - play: Throne Room
        answers: [Caravan]
      - end_turn
      - end_turn
    expect:
      Alice: {in_play: [Throne Room, Caravan], hand: 7}
    """
    res = run_text(tmp_path, text)
    assert res.error is None and not res.failures, [f.render() for f in res.failures]
    assert any("Throne Room, Caravan stay in play" in e.text for e in res.log.entries)
    # the two set-up abilities are separate and both fire at the start of the next turn
    g = res.game
    assert [c.name for c in g.players[0].hand].count("Gold") == 2
    # ...and then nothing is left to do, so this Clean-up discards them
    from app.engine.core import activities
    activities.cleanup(g)
    assert g.players[0].in_play == []


# ------------------------------------------------------------------ citations and coverage
def _citations():
    for path in sorted(config.scenarios_dir().glob("*.yaml")):
        for r in scenario.load(path).rulings:
            yield path.name, r


def test_every_cited_section_is_a_heading_of_the_rules():
    missing = [(f, r["section"]) for f, r in _citations() if "section" in r and section_chapter(r["section"]) is None]
    assert not missing


def test_every_cited_ruling_exists_in_the_card_reference():
    from app.corpus import card_reference_parser as parser
    from app.corpus.model import ParsedCorpus
    from app.corpus.sources import load_document

    parsed = ParsedCorpus()
    parser.parse_card_reference(load_document("rules"), parsed)
    entries = {e.name: e.slug for e in parsed.cards}
    by_key = {parser.name_key(e.name): e.slug for e in parsed.cards}
    # A previous version's rulings are keyed by its slug, e.g. 'hoard-pre-2022'.
    numbers = {(r.version or r.card, r.number) for r in parsed.rulings}
    versions = {v.slug for v in parsed.previous_versions}
    bad = []
    for f, r in _citations():
        if "card" not in r:
            continue
        # a Boon cited as printed ("The Earth's Gift") is the entry "Earth's Gift, The"
        slug = entries.get(r["card"]) or by_key.get(parser.name_key(r["card"]))
        if slug is not None and r.get("version"):
            slug = f"{slug}-{r['version']}"
            if slug not in versions:
                slug = None
        if slug is None or ("ruling" in r and (slug, r["ruling"]) not in numbers):
            bad.append((f, r))
    assert not bad


def test_every_base_card_has_a_definition_and_coverage_counts_them():
    from app.corpus.card_facts import load_facts

    base = {f.name for f in load_facts().values() if f.set == "Base"}
    assert len(base) >= 39
    assert base <= set(registry.defined_cards())
    data = commands.coverage_data()
    row = next(r for r in data["sets"] if r["set"] == "Base")
    assert row["defined"] == row["entries"]
    assert row["cited_by_scenarios"] >= 20
