"""Pre-2019 Inheritance: your Estates have *all* the abilities of the card with your Estate token.

Why a module of its own: ``player_tokens.py`` gives the inherited Estate its types and play ability;
the other abilities a card can have (when-buy, when-gain, when-would-gain, when-discard, when-trash,
while-in-play, and a Reaction in hand) are each found by the trigger machinery on the card's own
definition, and an Estate's definition cannot know which card a given player's token is on. So this
module answers, per occurrence, "is this Estate yours, and what does the card with your token do
here?", and hands the occurrence to that card's ability with the Estate as "this".

The rules (Card Reference, "Your Estate token", pre-2019 version; CR = Complete Rules):

* 1: "Your Estates have the abilities and types of the card with your Estate token" - all of them,
  so an Estate in your hand with the token on Moat or Watchtower is a Reaction you may reveal.
* 2: "An Estate is yours ... from the moment you buy it. This means when-buy abilities trigger."
* 6 (from the rulebook): "If you have your token on a card with a when-buy or a when-gain ability,
  buying or gaining an Estate, respectively, will trigger it."
* 11-12: an Estate no longer yours (trashed, returned) is just a Victory card when its types are
  checked; abilities that already triggered on it resolve ("Triggers are based on the actual
  occurrence", TRIGGERED ABILITY 3).
* 14: "If you play an Estate with the token on a Page or Peasant, you may exchange the Estate when you
  discard it: Return it to the Estate pile" (travellers.ACTING_AS).
* 15: "If you buy an Estate with your token on a Nomad Camp, it will be gained onto your deck.
  However, if you gain it with a card like Workshop, it won't be gained onto your deck, since it's
  not yours before you gain it": a when-would-gain ability works only for an Estate being bought.
* 5 (when-trash) is the same rule for trashing: the Estate was yours when it was trashed.
"""
from __future__ import annotations

from app.engine.core.registry import Reaction, definition
from app.engine.core.state import Card, Game
from app.engine.core.triggers import COLLECTORS, Event, Pending
from app.engine.mechanisms import player_tokens as pt
from app.engine.mechanisms import travellers

# the occurrences an Estate's "own" abilities (the card's hooks) trigger on
HOOK_KINDS = ("when_buy", "when_would_gain", "when_gain", "when_discard", "when_trash")
_BOUGHT = "estates_being_bought"     # game.__dict__: Estate id -> (buyer index, the card's stamp when bought)


def _cite(n: int) -> dict:
    return {"card": "Your Estate token", "ruling": n, "version": "pre-2019"}


def _active(game: Game) -> bool:
    return game.versions.get("Estate") == pt.PRE_2019


def _token_card(game: Game, owner: int | None) -> Card | None:
    if owner is None:
        return None
    t = pt._all(game).get(owner)
    return t.estate if t is not None and t.estate_pre_2019 else None


def _owner_for(game: Game, ev: Event) -> int | None:
    """Whose Estate this is at this occurrence (Your Estate token pre-2019 2, 15; LOCATIONS IN THE GAME § II)."""
    card = ev.card
    if ev.kind == "when_buy":
        # "an Estate is yours from the moment you buy it": remembered until it moves (it is then gained, or not)
        game.__dict__.setdefault(_BOUGHT, {})[card.id] = (ev.player.index, card.stamp)
        return ev.player.index
    if ev.kind == "when_would_gain":
        bought = game.__dict__.get(_BOUGHT, {}).get(card.id)
        # gained without being bought (Workshop), it is not yours before it is gained (15); bought by a Possessed
        # player and gained by the possessor instead, it is no longer the buyer's (2) nor the possessor's
        if bought is None or bought[1] != card.stamp or bought[0] != ev.player.index:
            return None
        return bought[0]
    if ev.kind == "when_trash":
        return ev.data.get("owner")          # it was yours when it was trashed (5)
    token = pt._pre_2019_token(game, card)
    return card.owner if token is not None else None


def _collect(game: Game, ev: Event) -> list[Pending]:
    if not _active(game):
        return []
    found: list[Pending] = []
    card = ev.card
    if card is not None and card.name == "Estate" and ev.kind in HOOK_KINDS:
        token = _token_card(game, _owner_for(game, ev))
        d = definition(game, token.name) if token is not None else None
        hook = d.hooks.get(ev.kind) if d is not None else None
        if hook is not None:
            found.append(_pending(ev.player, token.name, ev.kind, card, hook))
    for p in game.in_turn_order():
        # while-in-play abilities of Estates you played (Haggler, Goons, Treasury's mark): the Estate is that card
        for c in p.in_play:
            if c.name != "Estate":
                continue
            token = _token_card(game, c.owner)
            d = definition(game, token.name) if token is not None else None
            h = d.while_in_play.get(ev.kind) if d is not None else None
            if h is not None:
                found.append(Pending(p, f"Estate, with {token.name}'s abilities (in play)",
                                     lambda g, e, h=h, c=c: h(g, e, c)))
    return found


def _pending(actor, name: str, kind: str, card: Card, hook) -> Pending:
    words = kind.replace("_", "-")

    def run(g: Game, e: Event) -> None:
        n = {"when_trash": 5, "when_would_gain": 15, "when_discard": 14 if name in travellers.UPGRADE else 1}
        g.log.add(f"The Estate has {name}'s abilities: {name}'s {words} ability triggers", _cite(n.get(kind, 6)),
                  *([_cite(2)] if kind == "when_buy" else []))
        hook(g, e, card)
    return Pending(actor, f"Estate, with {name}'s abilities ({words})", run)


class _InheritedReactions(dict):
    """``CardDef.reactions`` of the pre-2019 inherited Estate: whatever Reaction the owner's token card has.

    The registry's definition is shared by every game, so it answers for any occurrence and lets
    ``applies`` look at this game: the Estate must be in its owner's hand, the owner's token must be on a
    card with a Reaction to this occurrence, and that Reaction must apply (Your Estate token pre-2019 1).
    It lists nothing (the card pages describe the Estate by its note).
    """

    def get(self, kind, default=None):
        return _reaction(kind)

    def __getitem__(self, kind):
        return _reaction(kind)

    def __contains__(self, kind) -> bool:
        return isinstance(kind, str)


_REACTIONS: dict[str, Reaction] = {}


def _token_reaction(game: Game, kind: str, estate: Card) -> tuple[str, Reaction] | None:
    token = pt._pre_2019_token(game, estate) if estate.zone == "hand" else None
    d = definition(game, token.name) if token is not None else None
    r = d.reactions.get(kind) if d is not None else None
    return (token.name, r) if r is not None else None


def _reaction(kind: str) -> Reaction:
    r = _REACTIONS.get(kind)
    if r is None:
        def applies(game, ev, player, card) -> bool:
            found = _token_reaction(game, kind, card)
            return (found is not None and card.owner == player.index
                    and found[1].applies(game, ev, player, card))

        def react(game, ev, player, card, *rest) -> None:
            name, inner = _token_reaction(game, kind, card)
            game.log.add(f"{player.name}'s Estate has {name}'s abilities: it is a Reaction like {name}", _cite(1))
            inner.react(game, ev, player, card, *rest)
        r = _REACTIONS[kind] = Reaction(react, applies)
    return r


def _acting_as(game: Game, card: Card) -> str | None:
    """An Estate you own acts as the card with your token, e.g. a Traveller when discarded from play (14)."""
    if card.name != "Estate" or not _active(game):
        return None
    token = pt._pre_2019_token(game, card)
    return token.name if token is not None else None


pt.PRE_2019_DEF.reactions = _InheritedReactions()
if _collect not in COLLECTORS:
    COLLECTORS.append(_collect)
if _acting_as not in travellers.ACTING_AS:
    travellers.ACTING_AS.append(_acting_as)
