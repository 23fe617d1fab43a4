"""A real Chromium on a phone: the sandbox's Reserve, Coffers and overpay moves, played as a player would.

Each journey starts a game from the setup form, makes the move with the page's own
controls (a button, a number field), and checks the engine's log says what the rule
says happened (Complete Rules § IV Reserve cards, Coffers and Villagers, Overpaying).
Screenshots go where ``test_browser.py`` puts them, for a person to look at.
"""
from __future__ import annotations

import pytest

from test_browser import (CHROMIUM, NEEDS_CHROMIUM, PHONE, _no_overflow, _page, _tap_targets_ok,  # noqa: F401
                          browser, server, shots)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)


def _start(page, server, kingdom: str, hand: str, deck: str, shot=None, **more: str) -> None:
    page.goto(server + "/try")
    page.fill("#kingdom", kingdom)
    page.fill("#p1_hand", hand)
    page.fill("#p1_deck", deck)
    page.fill("#p2_hand", "Copper*5")
    page.fill("#p2_deck", "Copper*5")
    for field, value in more.items():
        page.locator(f"#{field}").evaluate("e => e.closest('details').open = true")
        page.fill(f"#{field}", value)
    if shot is not None:
        shot()
    page.get_by_role("button", name="Start", exact=True).click()
    page.locator("#now").wait_for()


def _log(page) -> str:
    return page.locator("#log").text_content()


def _check(page, shots, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}-390.png"), full_page=True)
    _no_overflow(page)
    _tap_targets_ok(page)


def test_play_a_reserve_card_and_call_it_next_turn_on_a_phone(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Ratcatcher", "Ratcatcher, Copper*4", "Copper*5, Estate, Silver*4")   # next hand: an Estate
    page.get_by_role("button", name="Play Ratcatcher").click()
    table = page.locator("#table")
    table.wait_for()
    assert "Tavern mat: Ratcatcher" in table.inner_text()
    _check(page, shots, "sandbox-reserve-on-mat")
    page.get_by_role("button", name="End turn").click()           # Alice's turn ends
    page.locator("#now h2", has_text="Bob's turn").wait_for()
    page.get_by_role("button", name="End turn").click()           # Bob's turn ends: Alice's start of turn
    question = page.locator("#now h2", has_text="call Ratcatcher from your Tavern mat")
    question.wait_for()
    _check(page, shots, "sandbox-reserve-call-question")
    page.locator("#now").get_by_role("button", name="Yes").click()
    page.locator("#now h2", has_text="trash a card").wait_for()
    page.locator("#now").get_by_role("button", name="Estate", exact=True).click()
    page.get_by_role("button", name="End turn").wait_for()
    log = _log(page)
    assert "Alice calls Ratcatcher from their Tavern mat" in log and "Alice trashes Estate" in log
    _check(page, shots, "sandbox-reserve-called")
    assert not errors, errors
    ctx.close()


def test_call_a_reserve_card_set_up_on_the_tavern_mat(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Ratcatcher, Coin of the Realm", "Estate, Copper*4", "Copper*5",
           shot=lambda: _check(page, shots, "sandbox-setup-tavern-mat"), p1_tavern="Ratcatcher, Coin of the Realm")
    call = page.get_by_role("button", name="Call Ratcatcher from your Tavern mat")
    call.wait_for()
    # Coin of the Realm waits for an Action to be played: no button for it at the start of the turn
    assert page.get_by_role("button", name="Call Coin of the Realm from your Tavern mat").count() == 0
    _check(page, shots, "sandbox-call-button")
    call.click()
    page.locator("#now h2", has_text="trash a card").wait_for()
    page.locator("#now").get_by_role("button", name="Estate", exact=True).click()
    page.get_by_role("button", name="End turn").wait_for()
    assert "Alice calls Ratcatcher" in _log(page)
    assert "Tavern mat: Coin of the Realm" in page.locator("#table").inner_text()
    assert not errors, errors
    ctx.close()


def test_take_coffers_with_baker_and_spend_them_on_a_phone(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Baker, Plaza", "Baker, Copper*4", "Silver*5")
    assert "Coffers: 1" in page.locator("#table").inner_text()            # Baker's setup: 1 each
    page.get_by_role("button", name="Play Baker").click()
    page.locator("#now p.small", has_text="Coffers 2").wait_for()
    form = page.locator("#spend-coffers")
    assert "you have 2" in form.inner_text()
    form.locator("input[name=amount]").fill("2")
    _check(page, shots, "sandbox-coffers")
    form.get_by_role("button", name="Spend").click()
    page.locator("#now p.small", has_text="$2").wait_for()
    assert "Alice spends 2 Coffers for +$2" in _log(page)
    assert page.locator("#spend-coffers").count() == 0                    # none left to spend
    _check(page, shots, "sandbox-coffers-spent")
    assert not errors, errors
    ctx.close()


def test_buy_masterpiece_overpaying_on_a_phone(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Masterpiece", "Gold, Gold, Copper*3", "Copper*5")
    page.get_by_role("button", name="Play all Treasures").click()
    form = page.locator("form.overpay")
    form.wait_for()
    assert "Buy Masterpiece and overpay" in form.inner_text() and "$1 to $6" in form.inner_text()
    form.locator("input[name=overpay]").fill("3")
    _check(page, shots, "sandbox-overpay")
    form.get_by_role("button", name="Buy and overpay").click()
    page.get_by_role("button", name="End turn").wait_for()
    log = _log(page)
    assert "Alice gained Masterpiece after overpaying $3" in log and log.count("Alice gains Silver") == 3
    _check(page, shots, "sandbox-overpaid")
    assert not errors, errors
    ctx.close()


def test_the_special_piles_are_on_the_table_on_a_phone(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Tournament, Young Witch, Cultist, Knights, Hermit, Urchin, Marauder, Alms, Page",
           "Copper*5", "Copper*5")
    table = page.locator("#table").inner_text()
    for phrase in ("Events beside the Kingdom", "Alms ($0)", "Bane pile (Young Witch)", "Knights pile",
                   "Ruins pile", "top card", "Prizes: Bag of Gold", "Madman (10)", "Spoils (15)", "Mercenary (10)"):
        assert phrase in table, phrase
    page.locator("#table").screenshot(path=str(shots / "sandbox-special-piles-390.png"))
    _no_overflow(page)
    assert not errors, errors
    ctx.close()


def test_nocturne_empires_and_renaissance_set_up_by_themselves_and_a_project_bought_on_a_phone(server, browser, shots):
    """Only Kingdom cards and Landscapes are typed: the Heirloom, the Boons deck, Arena's VP tokens and the Project
    are on the table (Special setup § I), and the Project is bought with its own button (EVENTS AND PROJECTS § IV)."""
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Tracker, Arena, Fair, Catapult", "Gold, Gold, Copper*3", "Copper*5")
    table = page.locator("#table").inner_text()
    for phrase in ("Boons deck", "12 face down", "Landmark: Arena", "12 VP tokens on it", "Project: Fair",
                   "Catapult/Rocks pile", "Will-o'-Wisp (12)"):
        assert phrase in table, phrase
    assert "Pouch" in page.locator("#now").inner_text() or "Pouch" in page.content()   # instead of a Copper
    _check(page, shots, "sandbox-special-setup")
    page.get_by_role("button", name="Play all Treasures").click()
    page.get_by_role("button", name="Buy Project Fair ($4)").click()
    page.get_by_role("button", name="End turn").wait_for()
    assert "Alice buys the Project Fair for $4" in _log(page)
    assert "cubes: Alice" in page.locator("#table").inner_text()
    assert page.get_by_role("button", name="Buy Project Fair ($4)").count() == 0
    _check(page, shots, "sandbox-project-bought")
    assert not errors, errors
    ctx.close()


def test_spend_villagers_then_pay_off_debt_on_a_phone(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    _start(page, server, "Acting Troupe, Engineer, Village", "Acting Troupe, Village, Gold, Gold, Copper", "Copper*5")
    page.get_by_role("button", name="Play Acting Troupe").click()
    form = page.locator("#spend-villagers")
    form.wait_for()
    assert "you have 4" in form.inner_text()
    form.locator("input[name=amount]").fill("1")
    _check(page, shots, "sandbox-villagers")
    form.get_by_role("button", name="Spend").click()
    page.get_by_role("button", name="Play Village").click()           # the Action the Villager paid for
    page.get_by_role("button", name="Play all Treasures").wait_for()
    assert "Alice spends 1 Villager for +1 Action" in _log(page)
    page.get_by_role("button", name="Play all Treasures").click()
    page.get_by_role("button", name="Buy Engineer").click()
    debt = page.locator("#pay-debt")
    debt.wait_for()
    assert "you have 4 Debt" in debt.inner_text()
    debt.get_by_role("button", name="Pay off").click()
    page.locator("#now p.small", has_text="$4").wait_for()         # $8 (Village drew a Copper) less 4 Debt
    assert page.locator("#pay-debt").count() == 0
    _check(page, shots, "sandbox-debt-paid")
    assert not errors, errors
    ctx.close()
