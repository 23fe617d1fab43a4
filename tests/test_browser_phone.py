"""Issue #35 in a real Chromium: a dispute played in the sandbox with every question on the first screen,
a log in plain words, the home page's first visit, the phone menu, and dark mode with checked contrast.

Screenshots go where ``test_browser.py`` puts them (``RULINGS_SCREENSHOTS`` or a temporary directory).
"""
from __future__ import annotations

import pytest

from app.engine.core.plain_words import leaks
from test_browser import (CHROMIUM, DESKTOP, NEEDS_CHROMIUM, PHONE, _game_log, _no_overflow, _page,  # noqa: F401
                          _tap_targets_ok, browser, server, shots)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)


def _above_the_fold(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


# Royal Carriage on the Tavern mat, Throne Room plays Smithy twice; the Carriage is offered after each play
# and is called for Throne Room (Royal Carriage 6: it replays the Throne Room, which plays another Action twice).
CARRIAGE_ANSWERS = [("choose an Action card", "Smithy"), ("to replay Smithy", "No"), ("to replay Smithy", "No"),
                    ("to replay Throne Room", "Yes"), ("choose an Action card", "Village")]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_throne_room_and_royal_carriage_every_question_above_the_fold(server, browser, shots, viewport):
    ctx, page, errors = _page(browser, viewport)
    page.goto(server + "/try")
    assert page.input_value("#kingdom") == "" and page.input_value("#p1_hand") == ""     # starts empty
    page.fill("#kingdom", "Throne Room, Royal Carriage, Smithy, Village")
    page.fill("#p1_hand", "Throne Room, Smithy, Village, Copper*2")
    page.fill("#p1_deck", "Silver*12")
    page.fill("#p2_hand", "Copper*5")
    page.locator("#p1_tavern").evaluate("e => e.closest('details').open = true")
    page.fill("#p1_tavern", "Royal Carriage")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Play Throne Room").click()
    for n, (asked, answer) in enumerate(CARRIAGE_ANSWERS, 1):
        question = page.locator("#now h2", has_text=asked)
        question.wait_for()
        button = page.locator("#now").get_by_role("button", name=answer, exact=True)
        page.screenshot(path=str(shots / f"carriage-{viewport['width']}-q{n}.png"))
        assert _above_the_fold(page, question), f"question {n} ({asked}) is below the first screen"
        assert _above_the_fold(page, button), f"the {answer} button of question {n} is below the first screen"
        _no_overflow(page)
        _tap_targets_ok(page)
        button.click()
    page.get_by_role("button", name="End turn").wait_for()
    log = _game_log(page)
    assert "Alice plays Throne Room again, with Royal Carriage" in log
    assert "Alice calls Royal Carriage from their Tavern mat" in log
    found = [(line, leaks(line)) for line in log.splitlines() if leaks(line)]
    assert not found, found
    page.locator("#log summary").click()
    page.screenshot(path=str(shots / f"carriage-{viewport['width']}-log.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def test_home_page_says_what_this_is_and_the_phone_menu_shows_every_section(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/")
    assert page.locator("h1").count() == 1 and "Dominion" in page.locator("h1").inner_text()
    lede = page.locator("p.lede").inner_text()
    assert "Complete Rules (2023)" in lede and "FAQ" in lede and "German" in lede
    assert page.locator(".intro a", has_text="?").count() >= 1                 # a whole question as an example
    nav = page.locator("nav.mainnav a")
    names = [nav.nth(i).inner_text() for i in range(nav.count())]
    assert names == ["Rules", "Cards", "Index", "FAQ", "Adventures", "Scenarios", "Sandbox"]
    for i in range(nav.count()):
        assert _above_the_fold(page, nav.nth(i)) and nav.nth(i).is_visible(), names[i]
    _no_overflow(page)
    page.screenshot(path=str(shots / "home-first-visit-390.png"))
    assert not errors, errors
    ctx.close()


def test_a_suggested_table_holds_the_cards_it_was_suggested_for(server, browser):
    """The Knights table has a Knight in the hand and the Knights pile in the Kingdom."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/try?cards=Knights,Moat")
    assert "Knights" in page.input_value("#kingdom")
    hand = page.input_value("#p1_hand")
    assert hand.split(",")[0].startswith(("Sir ", "Dame ")), hand
    page.get_by_role("button", name="Start this table").click()
    assert page.get_by_role("button", name=f"Play {hand.split(',')[0]}").count() == 1
    assert not errors, errors
    ctx.close()


CONTRAST = """() => {
  function rgb(s) { const m = s.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
  function lum(c) { const a = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
                    return 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2]; }
  function bg(e) { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
                   if (c.length < 4 || c[3] > 0.5) return c; } return [255, 255, 255]; }
  const bad = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.offsetParent || ![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const st = getComputedStyle(e);
    const a = lum(rgb(st.color)), b = lum(bg(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const big = parseFloat(st.fontSize) >= 24 || (parseFloat(st.fontSize) >= 18.6 && +st.fontWeight >= 700);
    if (ratio < (big ? 3 : 4.5)) bad.push([e.tagName + '.' + e.className, e.textContent.trim().slice(0, 30), ratio.toFixed(2)]);
  }
  return bad;
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("path", ["/", "/search?q=throne+room+feast", "/cards/throne-room", "/scenarios/throne-room-feast",
                                  "/try?cards=Throne+Room,Feast"])
def test_dark_mode_follows_the_phone_and_every_text_is_readable(server, browser, shots, scheme, path):
    ctx = browser.new_context(viewport=PHONE, color_scheme=scheme, device_scale_factor=1)
    page = ctx.new_page()
    page.goto(server + path)
    page.wait_for_load_state()
    body = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert (body == "rgb(18, 20, 23)") == (scheme == "dark"), body
    low = page.evaluate(CONTRAST)
    name = path.strip("/").split("?")[0].replace("/", "_") or "home"
    page.screenshot(path=str(shots / f"{scheme}-{name}-390.png"))
    assert not low, f"{path} ({scheme}): text under 4.5:1 contrast: {low[:6]}"
    ctx.close()
