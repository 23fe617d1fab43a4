"""What a lost symbol was, where the documents and the card facts determine it (``tools/make_symbol_table.py``).

Each rule returns (restored text, source, why) or None; the first rule that answers wins, and a
gap no rule answers stays lost (shown as ``symbols.LOST``). The rules only read facts: the
card's own text from dominion-setup, the words of the sentence itself ("(Victory points)"),
the section the sentence is in ("VICTORY POINT TOKENS"). None of them guesses an amount.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from app.corpus.card_facts import CardFacts, load_facts
from app.corpus.reference_extract import CIRCLED as _GLYPH_VALUE   # ① .. ⑳, ❶ .. ❿: their numbers
from app.corpus.symbols import CIRCLED, Gap

Answer = tuple[str, str, str] | None

# A symbol as the card text prints it: "+$2", "$3", "2 VP", "+1 VP", "8 Debt", "Potion".
_CARD_SYMBOL = r"(?:[+-]?\$\d+|\$|[+-]?\d+ VP|VP|\d+ Debt|Debt|Potion)"
_WORD = re.compile(r"[\w’']+")


def _plain(s: str) -> str:
    s = re.sub(r"[*_]", "", s)
    s = re.sub(r"[\ue000-\uf7ff]", "¤", s)
    return " ".join(s.split())


def _cards_for(gap: Gap, sections: dict[str, str]) -> list[CardFacts]:
    """The card the gap's text is about (its owner, or chapter VII's "Detailed timing" entry named after it)."""
    facts = load_facts()
    slug = gap.card
    if slug is None and gap.owner.startswith("vii-"):
        slug = gap.owner.split("#", 1)[0][len("vii-"):]
    f = facts.get(slug or "")
    return [f] if f else []


def _symbols(text: str) -> list[str]:
    return re.findall(_CARD_SYMBOL, text)


def sentence(gap: Gap, section_title: str, cards: list[CardFacts]) -> Answer:
    """The sentence names the symbol itself: "the most  (Victory points)", "give you  (Coins)"."""
    after = _plain(gap.after)
    before = _plain(gap.before)
    for words, symbol in (("(Victory point", "VP"), ("(Coins)", "$"), ("(Debt)", "Debt"),
                          ("tokens (Victory point tokens)", "VP")):
        if after.startswith(words):
            return symbol, "sentence", f"the sentence names it: {words}"
    # "cannot have  or  in its cost", "cards with  or  in their cost": the two symbols a cost can
    # have besides coins (COMMON EFFECTS: CARD COSTS; the Card Reference lists Potion before Debt).
    if re.match(r"^or (?:¤ )?in (?:(?:its|their) )?costs?\b", after) and re.search(r"\b(?:have|with|of)$", before):
        return "Potion", "sentence", "“X or Y in its cost”: a cost's other symbols are Potion and Debt"
    if re.match(r"^in (?:(?:its|their) )?costs?\b", after) and re.search(r"\b(?:have|with|of) (?:¤ )?or$", before):
        return "Debt", "sentence", "“X or Y in its cost”: a cost's other symbols are Potion and Debt"
    # "your +1 token": of the Adventures tokens (+1 Card, +1 Action, +1 Buy, +$1) only the coin one has no word
    if before.endswith("+") and re.match(r"^1 tokens?\b", after):
        return "$", "sentence", "the Adventures tokens are +1 Card, +1 Action, +1 Buy and +$1 (Teacher's text): a “+1 token” is +$1"
    # What a turn's pools hold: "keeping any Actions, Buys and  you had left", "has the Buys and  available".
    if re.search(r"\bBuys and$", before):
        return "$", "sentence", "Actions, Buys and coins: what a turn's pools hold"
    # A Treasure's production: "The Treasure produces  even though", "This Treasure does not give you ".
    if re.search(r"\b(?:Treasures?|it|[Tt]hey go into play and) produces?$|\bTreasure (?:that )?does not give you$", before) \
            and not after.startswith("("):
        return "$", "sentence", "what a Treasure produces when played: coins"
    # "This has VARIABLE  PRODUCTION": the Card Reference prints the term with the coin (“VARIABLE ① PRODUCTION”).
    if before.endswith("VARIABLE") and after.startswith("PRODUCTION"):
        return "$", "sentence", "the term is printed “VARIABLE ① PRODUCTION” (the coin) elsewhere in the Complete Rules"
    # Scoring: "it's worth 4  when scoring", "you get 5  if no one has more", "scores you 3  per copy".
    if re.search(r"\b(?:worth|score|scores you|scoring|giving|get)(?: an extra)?(?: (?:[+-–]?\d+|x))?$", before) and \
            re.search(r"\b(?:scor|end of the game|per |if )", after + " " + before):
        if not re.match(r"^tokens?\b", after):
            return "VP", "sentence", "a number of points scored at the end of the game"
    return None


def section(gap: Gap, section_title: str, cards: list[CardFacts]) -> Answer:
    """A token named by the section it is in: "  tokens" under VICTORY POINT TOKENS or DEBT."""
    after = _plain(gap.after)
    title = section_title.upper()
    if "VICTORY POINT TOKEN" in title:
        return "VP", "section", f"the section {section_title} is about VP only"
    if re.match(r"^(?:in (?:its|their) )?costs?\b|^\(Debt\)", after):
        for words, symbol in (("POTION", "Potion"), ("DEBT", "Debt")):
            if words in title:
                return symbol, "section", f"a cost in the section {section_title}"
    if not re.match(r"^tokens?\b", after):
        return None
    for words, symbol in (("VICTORY POINT TOKEN", "VP"), ("DEBT", "Debt")):
        if words in title:
            return symbol, "section", f"a token in the section {section_title}"
    return None


def card_text(gap: Gap, section_title: str, cards: list[CardFacts]) -> Answer:
    """The card's own text prints the symbol in the same words ("costing up to $4", "+$2", "take 2 VP")."""
    if not cards:
        return None
    card = cards[0]
    text = card.text.replace("\n", " ")
    before, after = _plain(gap.before), _plain(gap.after)
    name = card.name
    # tokens: the card hands out or takes one kind of token
    if re.match(r"^tokens?\b", after):
        kinds = {k for k, pat in (("VP", r"\bVP\b"), ("Debt", r"\bDebt\b")) if re.search(pat, text)}
        if len(kinds) == 1:
            kind = kinds.pop()
            return kind, "card text", f"{name}'s text gives or takes {kind} tokens"
        return None
    # "+N" whose coin sign was lost
    m = re.match(r"^(\d+)\b", after)
    if before.endswith("+") and m:
        amount = m.group(1)
        vp = re.search(rf"\+{amount} VP\b", text)
        coin = re.search(rf"\+\${amount}\b", text) or (
            card.is_type("Treasure") and re.match(rf"\${amount}\b", card.text))
        if coin and not vp:
            return "$", "card text", f"{name}'s text: +${amount}" if "+$" + amount in text else \
                f"{name}'s text: ${amount} (a Treasure)"
        if vp and not coin:
            return "VP", "card text", f"{name}'s text: +{amount} VP"
        return None
    # "The cost of Madman is  for any ability": the card's cost, from the card facts
    if re.search(r"\bcost of [\w’' ]+ is$", before) and not card.cost_potion and not card.cost_debt:
        return f"${card.cost_coins}", "card text", f"{name} costs ${card.cost_coins} (card facts)"
    # a card whose text prints no symbol but coins: a bare gap in its rulings is coins
    kinds = {k for k, pat in (("$", r"\$"), ("VP", r"\bVP\b"), ("Debt", r"\bDebt\b"), ("Potion", r"\bPotion\b"))
             if re.search(pat, text)} | ({"Potion"} if card.cost_potion else set()) | ({"Debt"} if card.cost_debt else set())
    if kinds == {"$"} and not re.match(r"^(?:tokens?|\d)", after) and not before.endswith("+") \
            and re.search(r"\b(?:the|all|any|your|of|each|had|get|gives?|pay)$", before) \
            and not re.match(r"^(?:or|in its|in their)\b", after):
        return "$", "card text", f"{name}'s text prints no symbol but $"
    if False:
        return None
    # a bare "+": the card's one coin bonus (a Treasure's value counts: Spoils "$3"); "+$1 per ..." varies
    if before.endswith("+"):
        if "VP" in text or "Debt" in text:
            return None
        fixed = set(re.findall(r"\+\$(\d+)(?! per)\b", text))
        varying = re.findall(r"\+\$(?:\d+ per\b|(?!\d))", text)
        if card.is_type("Treasure"):
            fixed |= set(re.findall(r"^\$(\d+)\b", card.text))
        if varying and not fixed:
            return "$", "card text", f"{name}'s text: +$ varies (“{varying[0].strip()}…”)"
        if len(fixed) == 1 and not varying:
            amount = fixed.pop()
            return f"${amount}", "card text", f"{name}'s text: +${amount}" if "+$" in text else \
                f"{name}'s text: ${amount}"
        return None
    # the same words around a symbol in the card's text: "costing up to  from" ~ "costing up to $4"
    words = _WORD.findall(before.lower())[-2:]
    if len(words) == 2:
        pat = re.compile(rf"\b{re.escape(words[0])} {re.escape(words[1])} ({_CARD_SYMBOL})", re.IGNORECASE)
        found = {m.group(1) for m in pat.finditer(text)}
        if len(found) == 1:
            symbol = found.pop()
            return symbol, "card text", f"{name}'s text: “{words[0]} {words[1]} {symbol}”"
    return None


# The basic cards: every game has them, and a sentence names them in passing ("for any Silvers you gained").
_BASIC = {"copper", "silver", "gold", "platinum", "estate", "duchy", "province", "colony", "curse", "potion"}


def _named(gap: Gap, cards: list[CardFacts]) -> list[CardFacts]:
    """The card the gap belongs to and every other (non-basic) card its sentence names."""
    facts = load_facts()
    before, after = _plain(gap.before), _plain(gap.after)
    clause = re.split(r"(?<=[.!?])\s+(?=[A-Z*(])", before)[-1] + " ¤ " + re.split(r"(?<=[.!?])\s+", after)[0]
    out = list(cards)
    names = _card_names()
    for m in re.finditer(r"[A-Z][\w’'-]*(?: (?:of the |of |the )?[A-Z][\w’'-]*)*", clause):
        words = m.group(0).split()
        # the longest run of words that names a card ("Reckless Steward" names Steward; "Harbor Village" itself)
        for i in range(len(words)):
            slug = names.get(" ".join(words[i:]).lower().rstrip("s’'"), names.get(" ".join(words[i:]).lower()))
            if slug:
                if slug not in _BASIC and all(c.slug != slug for c in out):
                    out.append(facts[slug])
                break
    return out


@lru_cache(maxsize=1)
def _card_names() -> dict[str, str]:
    return {f.name.lower(): slug for slug, f in load_facts().items()}


def _kinds(card: CardFacts, plus: bool) -> set[str]:
    """The symbols a card's text gives: with ``plus``, only the ones it gives with a plus sign ("+$2", "+1 VP")."""
    text = card.text
    if plus:
        pats = (("$", r"\+\$"), ("VP", r"\+\d* ?VP\b"), ("Debt", r"\+\d* ?Debt\b"))
    else:
        pats = (("$", r"\$"), ("VP", r"\bVP\b"), ("Debt", r"\bDebt\b"), ("Potion", r"\bP\b|\bPotion\b"))
    return {k for k, pat in pats if re.search(pat, text)}


def named_cards(gap: Gap, section_title: str, cards: list[CardFacts]) -> Answer:
    """The cards the sentence is about give one kind of symbol: "the Temple pile ... add ", "+ from Harbor Village".

    The card the ruling belongs to and the cards its sentence names are read together; when their texts give
    only one kind of symbol (with a plus sign, for a gap after "+"), the gap is that kind. Amounts are never
    invented: a bare "+" keeps the card's amount only when the card gives exactly one.
    """
    named = _named(gap, cards)
    if not named:
        return None
    before, after = _plain(gap.before), _plain(gap.after)
    names = ", ".join(c.name for c in named)
    if re.match(r"^tokens?\b", after):
        kinds = set().union(*(_kinds(c, False) for c in named)) & {"VP", "Debt"}
        if len(kinds) == 1:
            kind = kinds.pop()
            return kind, "card text", f"the tokens of {names}: {kind}"
        return None
    plus = bool(re.search(r"\+(?:\d+)?$", before))
    kinds = set().union(*(_kinds(c, plus) for c in named))
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if not plus:
        # a cost's symbol is a cost question, not the card's text ("with  in its cost", "have  or")
        if re.match(r"^(?:or\b(?! \+Coffers)|in (?:its|their) costs?\b|\d)", after) or \
                re.search(r"\b(?:have|with|of|costs?|costing)$", before):
            return None
        return kind, "card text", f"the text of {names} gives no symbol but {kind}"
    if kind == "$" and before.endswith("+") and not re.match(r"^\**\d", after) and len(named) == 1:
        fixed = set(re.findall(r"\+\$(\d+)(?! per)\b", named[0].text))
        varying = re.findall(r"\+\$(?:\d+ per\b|(?!\d))", named[0].text)
        if len(fixed) == 1 and not varying:
            amount = fixed.pop()
            return f"${amount}", "card text", f"{names}'s text: +${amount}"
    return kind, "card text", f"the text of {names} gives no symbol with a plus sign but {kind}"


# The words a coin's amount follows or precedes in these rules ("costing ②", "+⑦", "pay ①", "at least ②",
# "up to ③ more", "Your -① token", "a ⑤-cost card", "③ or more").
_MONEY_BEFORE = re.compile(rf"(?:\b(?:costing|costs?|cost of|pay|deduct|get|gets the cost|gives? you|at least|up to|"
                           rf"exactly|below|more than|having|have|with|per|produce|is always|for|fall to)|[+\-–—]|[{CIRCLED}] or)$",
                           re.I)
_MONEY_AFTER = re.compile(r"^(?:-cost\b| (?:Cost )?tokens?\b| or (?:more|less)\b| more\b| (?:left )?in your money pool\b)")


def circled(gap: Gap, section_title: str, cards: list[CardFacts]) -> Answer:
    """A coin printed as a circled digit ("costing ② or ③", "+⑦", "Your -① token"): the digit is its amount.

    The glyph is not always the amount: "The cost of Wish is ①" is the card's cost from the card facts ($0);
    the other exceptions (a $0 the sentence determines, Capital's Debt) are person rows of the table.
    """
    before, after = _plain(gap.before), _plain(gap.after)
    glyph, rest = after[:1], after[1:]
    amount = _GLYPH_VALUE[glyph]
    m = re.search(r"\bcost of ([\w’' ]+?) is$", before)
    if m:
        card = load_facts().get(_card_names().get(m.group(1).lower(), ""))
        if card is None or card.cost_potion or card.cost_debt:
            return None
        return f"${card.cost_coins}", "card text", f"{card.name} costs ${card.cost_coins} (card facts); the document prints {glyph}"
    if before.endswith("VARIABLE") and rest.startswith(" PRODUCTION"):
        return "$", "sentence", "the term VARIABLE $ PRODUCTION (“Variable 🟡 production”, chapter III): the coin, no amount"
    if _MONEY_BEFORE.search(before) or _MONEY_AFTER.match(rest):
        m = _MONEY_BEFORE.search(before)
        where = f"after “{m.group(0)}”" if m else f"before “{_MONEY_AFTER.match(rest).group(0).strip()}”"
        return f"${amount}", "sentence", f"a coin with its amount printed as {glyph} ({where}): ${amount}"
    return None


RULES: list[Callable[[Gap, str, list[CardFacts]], Answer]] = [sentence, section, card_text, named_cards]


_LEGEND = {"\U0001F7E1": ("$", "the document's legend: “🟡 = Coins”"),
           "\U0001F534": ("Debt", "the document's legend: “🔴 = Debt”"),
           "\U0001F3F0": ("VP", "the document's legend: “🏰 = Victory points”"),
           "\U0001F535": ("Potion", "“the 🟡 and 🔵 you have available” in a money pool: coins and Potions"),
           "\U0001F423": ("Potion", "a cost “with 🐣 or 🐥 in it”: the two kinds of cost besides coins, Potion and Debt"),
           "\U0001F425": ("Debt", "a cost “with 🐣 or 🐥 in it”: the two kinds of cost besides coins, Potion and Debt")}


def legend(gap: Gap) -> Answer:
    """A symbol the document printed as a picture its legend (or its sentence) names."""
    symbol, why = _LEGEND[_plain(gap.after)[:1]]
    return symbol, ("section" if "legend" in why else "sentence"), why


_COIN_WORD_BEFORE = re.compile(r"(?:\b(?:costing|costs|cost of|produces?)(?: up to| exactly)?|\(instead of(?: \d+ or)?) ¤?$")


def coin_word(gap: Gap) -> Answer:
    """An amount after a word that only takes coins ("a card costing 0", "produce 1 (instead of 2 or 3)")."""
    m = _COIN_WORD_BEFORE.search(_plain(gap.before) + " ")
    if m and re.match(r"\d", _plain(gap.after)):
        return "$", "sentence", f"an amount after “{m.group(0).strip(' ¤')}” is a coin's: costs and production are in coins"
    return None


def infer(gap: Gap, section_title: str, sections: dict[str, str]) -> Answer:
    if _plain(gap.after)[:1] in _LEGEND:
        return legend(gap)
    answer = coin_word(gap)
    if answer is not None:
        return answer
    if re.match(f"[{CIRCLED}]", _plain(gap.after)):
        return circled(gap, section_title, [])        # a circled digit is only ever a coin's amount
    cards = _cards_for(gap, sections)
    for rule in RULES:
        answer = rule(gap, section_title, cards)
        if answer is not None:
            return answer
    return None
