"""The judge's audit of Base and Intrigue (docs/audit-base-intrigue.md): what a user relies on when
reading a ruling the engine plays out.

* the numbers a card gives (coins, VP) are the card facts', not typed from memory;
* first-edition-only cards and cards whose text changed in the Second Edition have the right versions;
* "costing up to $X" never takes a Potion or Debt card, and "remodel"-type gains keep the trashed
  card's Potion and Debt (CARD COSTS and "REMODEL" CARD, § VI) -- checked on the real definitions,
  since no Potion or Debt card has an executable definition yet to put in a scenario;
* every log line of a Base/Intrigue scenario cites a ruling that exists, and Diplomat's lines cite
  the ruling that says what they narrate;
* every Base and Intrigue card is demonstrated by a scenario.
"""
from __future__ import annotations

import re
from functools import lru_cache

import pytest

from app import config
from app.corpus.card_facts import load_facts
from app.corpus.card_reference_parser import find_card, parse_card_reference
from app.corpus.model import ParsedCorpus, slugify
from app.corpus.sources import load_document
from app.engine.core import costs, registry
from app.engine import scenario
from app.engine.core.effects import Ctx, Gain, IfYouDid, PlusCoins, Sequence
from app.engine.core.state import Card

SETS = ("Base", "Intrigue")


@lru_cache(maxsize=1)
def _parsed() -> ParsedCorpus:
    parsed = ParsedCorpus()
    parse_card_reference(load_document("rules"), parsed)
    return parsed


def _cards(set_name: str) -> dict:
    return {f.name: f for f in load_facts().values() if f.set == set_name}


def _our_scenarios() -> list:
    """Scenarios of these sets: files named base-*/intrigue-* or without another set's prefix."""
    others = {slugify(f.set) for f in load_facts().values() if f.set and f.set not in SETS}
    out = []
    for p in sorted(config.scenarios_dir().glob("*.yaml")):
        if not any(p.stem.startswith(o + "-") for o in others):
            out.append(p)
    return out


# ------------------------------------------------------------------ numbers come from the card facts
def _vp_in_text(text: str) -> int | None:
    m = re.search(r"(-?\d+) VP\s*$", text)
    return int(m.group(1)) if m else None


@pytest.mark.parametrize("name", ["Copper", "Silver", "Gold", "Harem"])
def test_treasure_coins_are_the_card_facts(name):
    facts = load_facts()[slugify(name)]
    printed = int(re.match(r"\$(\d+)", facts.text).group(1))
    play = registry.definition(None, name).play
    assert isinstance(play, PlusCoins) and play.n == printed


@pytest.mark.parametrize("name", ["Estate", "Duchy", "Province", "Curse", "Harem", "Great Hall", "Nobles", "Mill"])
def test_fixed_victory_points_are_the_card_facts(name):
    printed = _vp_in_text(load_facts()[slugify(name)].text)
    assert printed is not None
    assert registry.definition(None, name).vp == printed


# ------------------------------------------------------------------ editions
def test_first_edition_only_cards_exist_only_as_version_1():
    for set_name in SETS:
        for name, f in _cards(set_name).items():
            if tuple(f.editions) == (1,):
                assert registry.versions(name) == ["1"], name


def test_cards_whose_text_changed_in_the_second_edition_have_both_versions():
    """The Card Reference says so in a "New edition: The card text was changed ..." ruling."""
    changed = []
    for set_name in SETS:
        for name in _cards(set_name):
            entry = find_card(_parsed(), name)
            if entry is None:
                continue
            texts = [r.text for r in _parsed().rulings if r.card == entry.slug and r.version is None]
            if any("card text was changed in the Second Edition" in t for t in texts):
                changed.append(name)
    assert sorted(changed) == ["Masquerade", "Mine", "Moneylender", "Throne Room"]
    for name in changed:
        assert registry.versions(name) == ["1", "2"], name
        assert registry.definition(None, name).version == "2", name   # the current printing by default


# ------------------------------------------------------------------ costs with Potion and Debt
def _card(name: str) -> Card:
    return Card(id=0, name=name)


def _gain_of(effect) -> Gain:
    """The Gain inside a definition (possibly in a Sequence / behind "if you did")."""
    if isinstance(effect, Gain):
        return effect
    if isinstance(effect, IfYouDid):
        return _gain_of(effect.effect)
    if isinstance(effect, Sequence):
        return next(_gain_of(e) for e in effect.effects if isinstance(e, (Gain, IfYouDid, Sequence)))
    raise AssertionError(f"no Gain in {effect!r}")


def _allows(card_name: str, gainer: str, trashed: str | None = None, version: str | None = None) -> bool:
    d = registry.definition(None, gainer) if version is None else registry._DEFS[gainer][version]
    ctx = Ctx(game=None, player=None, source=None, vars={"trashed": [_card(trashed)]} if trashed else {})
    return bool(_gain_of(d.play).filter(ctx, _card(card_name)))


def test_potion_and_debt_amounts_are_what_the_facts_say():
    facts = {n: load_facts()[slugify(n)] for n in ("Familiar", "Golem", "Engineer", "Philosopher's Stone")}
    assert facts["Familiar"].cost_potion and facts["Golem"].cost_potion and facts["Philosopher's Stone"].cost_potion
    assert facts["Engineer"].cost_debt and not facts["Engineer"].cost_potion


@pytest.mark.parametrize("gainer,limit", [("Workshop", 4), ("Feast", 5), ("Artisan", 5)])
def test_up_to_gains_never_take_a_potion_or_debt_card(gainer, limit):
    assert _allows("Silver", gainer)
    familiar = _card("Familiar")
    assert familiar.cost <= limit            # the coins alone would fit ...
    assert not _allows("Familiar", gainer)   # ... but a Potion cost is never "up to $X"
    assert not _allows("Engineer", gainer)   # nor a Debt cost


def test_remodel_keeps_the_trashed_cards_potion():
    # Familiar costs $3 and a Potion: "up to $2 more" is up to $5 and a Potion
    assert _allows("Golem", "Remodel", trashed="Familiar")
    assert _allows("Silver", "Remodel", trashed="Familiar")       # a lower cost
    assert not _allows("Golem", "Remodel", trashed="Silver")      # a Potion is higher than no Potion
    assert not _allows("Engineer", "Remodel", trashed="Familiar")


def test_mine_keeps_the_trashed_treasures_potion():
    assert _allows("Gold", "Mine", trashed="Philosopher's Stone")            # $6 <= $3P + $3
    assert not _allows("Philosopher's Stone", "Mine", trashed="Silver")      # has a Potion, Silver has none
    assert _allows("Philosopher's Stone", "Mine", trashed="Philosopher's Stone")


def test_exactly_more_and_less_keep_potion_and_debt():
    familiar, golem, smithy, silver = (_card(n) for n in ("Familiar", "Golem", "Smithy", "Silver"))
    assert costs.costs_exactly_more(golem, familiar, 1)         # Upgrade: $3P -> exactly $4P
    assert not costs.costs_exactly_more(smithy, familiar, 1)    # $4 without the Potion
    assert costs.costs_exactly_more(smithy, silver, 1)
    assert not costs.costs_up_to_more(golem, golem, -2)         # Saboteur: $4P -> at most $2P
    assert costs.costs_up_to_more(_card("Apothecary"), golem, -2)


# ------------------------------------------------------------------ citations on the log lines
@lru_cache(maxsize=1)
def _replays() -> dict:
    return {p.name: scenario.run(scenario.load(p)) for p in _our_scenarios()}


def test_every_ruling_cited_on_a_log_line_exists():
    parsed = _parsed()
    numbers = {(r.version or r.card, r.number) for r in parsed.rulings}
    bad = []
    for name, res in _replays().items():
        for e in res.log.entries:
            for c in e.citations:
                if "card" not in c:
                    continue
                entry = find_card(parsed, c["card"])
                slug = entry.slug if entry is not None else None
                if slug is not None and c.get("version") and (f"{slug}-{c['version']}", c.get("ruling")) in numbers:
                    slug = f"{slug}-{c['version']}"     # a "Previous versions" entry's ruling (Doctor (pre-2022) 8)
                if entry is None or ("ruling" in c and (slug, c["ruling"]) not in numbers):
                    bad.append((name, e.text, c))
    assert len(_replays()) >= 100
    assert not bad


def test_diplomat_lines_cite_what_they_narrate():
    res = _replays()["intrigue-diplomat-reaction.yaml"]
    reveal = next(e for e in res.log.entries if "reveals Diplomat" in e.text)
    assert {"card": "Diplomat", "ruling": 2} in reveal.citations     # GET FROM DECK, THEN DISCARD
    still = next(e for e in res.log.entries if "still affected" in e.text)
    assert not any(c.get("card") == "Diplomat" for c in still.citations)


# ------------------------------------------------------------------ coverage
def test_every_base_and_intrigue_card_is_demonstrated_by_a_scenario():
    cited = set()
    for p in config.scenarios_dir().glob("*.yaml"):
        cited |= {r["card"] for r in scenario.load(p).rulings if "card" in r}
    basic = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"}   # no Card Reference entry
    missing = [n for s in SETS for n in _cards(s) if n not in basic and n not in cited]
    assert not missing
