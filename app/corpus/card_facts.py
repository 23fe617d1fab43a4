"""Card facts (cost, types, set, editions, card text) from the ``dominion-setup`` package.

This is the only place that reads dominion-setup. The store build joins the
facts onto Card Reference entries by name; the engine reads the same facts
through ``load_facts`` so a definition never restates a cost or a type.
"""
from __future__ import annotations

import re

from dataclasses import dataclass
from functools import lru_cache

from app.corpus.model import CardEntry, ParsedCorpus, slugify


@dataclass(frozen=True)
class CardFacts:
    name: str
    slug: str
    set: str
    editions: tuple[int, ...]
    types: tuple[str, ...]
    cost_coins: int
    cost_potion: bool
    cost_debt: int
    cost_extra: str | None     # '*' or '+' as printed after the cost
    purpose: str
    quantity: int | None
    text: str

    def is_type(self, type_name: str) -> bool:
        return type_name in self.types


@lru_cache(maxsize=1)
def load_facts() -> dict[str, CardFacts]:
    """All cards dominion-setup knows, keyed by slug (see ``model.slugify``)."""
    from dominion_setup.loader import load_card_database

    facts: dict[str, CardFacts] = {}
    for card in load_card_database().cards:
        slug = slugify(card.name)
        facts[slug] = CardFacts(
            name=card.name,
            slug=slug,
            set=str(card.set.value),
            editions=tuple(int(e) for e in card.editions),
            types=tuple(str(t.value) for t in card.types),
            cost_coins=int(card.cost.coins or 0),
            cost_potion=bool(card.cost.potion),
            cost_debt=int(card.cost.debt or 0),
            cost_extra=card.cost.extra,
            purpose=str(card.purpose.value),
            quantity=card.quantity,
            text=debt_in_words(card.instructions or ""),
        )
    return facts


_DEBT = re.compile(r"(?<![\w$])(\d*)D(?!\w)")


def debt_in_words(text: str) -> str:
    """The package prints the Debt symbol as a bare "D" ("up to 40D", "cards or D they would gain"): say "Debt"."""
    return _DEBT.sub(lambda m: f"{m.group(1)} Debt" if m.group(1) else "Debt", text)


def facts_for(name: str) -> CardFacts | None:
    return load_facts().get(slugify(name))


def join_card_facts(parsed: ParsedCorpus) -> None:
    """Copy dominion-setup facts onto Card Reference entries; list the ones that do not join.

    Redirect entries ("Abandoned Mine see Ruins") are joined too when the
    name is a card. Entries that are types, tokens or mats are listed in
    ``parsed.unjoined`` with the reason rather than guessed at.
    """
    facts = load_facts()
    for entry in parsed.cards:
        f = facts.get(entry.slug) or facts.get(slugify(_uninverted(entry.name)))
        if f is None and entry.kind == "type":
            # "Knight (type)" is also the entry of the Knights pile the package lists as one card
            f = facts.get(slugify(entry.name + "s"))
        if f is None:
            reason = {
                "type": "a card type, not a card",
                "token": "a token, not a card",
            }.get(entry.kind, "no card of this name in dominion-setup")
            parsed.unjoined.append((entry.slug, reason))
            continue
        _apply(entry, f)


def _uninverted(name: str) -> str:
    """The Card Reference files the Boons "The X's Gift" as "X's Gift, The"."""
    if name.endswith(", The"):
        return "The " + name[: -len(", The")]
    return name


def _apply(entry: CardEntry, f: CardFacts) -> None:
    entry.set = f.set
    entry.editions = list(f.editions)
    entry.types = list(f.types)
    entry.cost_coins = f.cost_coins
    entry.cost_potion = f.cost_potion
    entry.cost_debt = f.cost_debt or None
    entry.text = f.text
    entry.purpose = f.purpose
    entry.facts_source = "dominion-setup"
