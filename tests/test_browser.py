"""A real Chromium, driven as a player would: on a phone-sized screen and on a desktop.

The app runs in a real server thread (werkzeug) on 127.0.0.1 against the
session build; Playwright drives Debian's Chromium (``.ci/run`` installs it).
Screenshots go to a temporary directory (printed with ``-s``) for a person to
look at; the tests themselves check what can be checked mechanically: no
horizontal overflow, tap targets of a usable size, and that each journey ends
on the right content.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from bench.dispute_taps import DISPUTES

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

NEEDS_CHROMIUM = ("needs Debian's Chromium at /usr/bin/chromium, which is not installed: "
                  "run `apt-get install chromium` (Playwright drives it; it never downloads a browser)")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)


@pytest.fixture(scope="module")
def server(built_index):
    from werkzeug.serving import make_server

    from app.web import create_app

    app = create_app({"DB_PATH": built_index / "rules.db"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package: pip install -e '.[test]'")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    d = Path(os.environ.get("RULINGS_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {d}")
    return d


def _page(browser, viewport, service_workers: str = "allow"):
    """A fresh context and page; ``service_workers="block"`` where a test routes requests itself
    (Playwright's routes do not see what a service worker fetches)."""
    ctx = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=viewport is PHONE,
                              has_touch=viewport is PHONE, service_workers=service_workers)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return ctx, page, errors


def _no_overflow(page) -> None:
    width = page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{page.url}: page is {width[0]} px wide in a {width[1]} px window"


SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    'header a, header button, header input, nav.mainnav a, button, .button, input[type=search], .tiles a, .letters a'))
  .filter(e => e.offsetParent !== null)
  .map(e => [e.tagName + ' ' + (e.textContent || e.name || '').trim().slice(0, 30), e.getBoundingClientRect().height])
  .filter(([_, h]) => h < 40)"""


def _game_log(page) -> str:
    """The sandbox's whole game so far (folded under the question, newest move first)."""
    return page.locator("#log").text_content()


def _tap_targets_ok(page) -> None:
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"{page.url}: tap targets under 40 px high: {small[:5]}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_search_misspelled_card_and_open_it(server, browser, shots, viewport):
    ctx, page, errors = _page(browser, viewport)
    page.goto(server + "/")
    _tap_targets_ok(page)
    page.fill("#q", "trone room")                       # results as you type, no submit
    first = page.locator("#results section.group h2 a").first
    first.wait_for()
    assert first.get_attribute("href") == "/cards/throne-room"
    assert page.url.endswith("/search?q=trone%20room")
    page.screenshot(path=str(shots / f"search-{viewport['width']}.png"), full_page=True)
    _no_overflow(page)
    first.click()
    page.wait_for_url("**/cards/throne-room")
    assert page.locator("h1").inner_text().startswith("Throne Room")
    assert page.locator("#r1").is_visible()
    page.screenshot(path=str(shots / f"card-{viewport['width']}.png"), full_page=True)
    _no_overflow(page)
    _tap_targets_ok(page)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_typeahead_jumps_to_a_card_and_a_cleared_box_clears_the_page(server, browser, shots, viewport):
    """Issue #13: a German name's start offers the card; an exact name and Enter opens it."""
    ctx, page, errors = _page(browser, viewport)
    page.goto(server + "/")
    page.fill("#q", "burggr")
    option = page.locator("ul.typeahead [role=option]").first
    option.wait_for()
    assert option.get_attribute("data-url") == "/cards/moat"
    page.screenshot(path=str(shots / f"typeahead-{viewport['width']}.png"), full_page=True)
    _no_overflow(page)
    option.click()
    page.wait_for_url("**/cards/moat")
    page.goto(server + "/search?q=moat+witch")
    assert page.locator("#q").input_value() == "moat witch"      # the permalink keeps the query
    assert page.locator("#results .hit").count() > 0
    page.fill("#q", "")
    page.wait_for_function("() => !document.querySelector('#results .hit')")
    assert page.url.endswith("/search")
    page.fill("#q", "Throne Room")
    page.press("#q", "Enter")
    page.wait_for_url("**/cards/throne-room")
    assert not errors, errors
    ctx.close()


def test_phone_typeahead_closes_on_submit_and_the_first_result_shows(server, browser, shots):
    """On a phone the card list sits between the box and the results: submitting (Enter or the button)
    closes it at once, and it stays closed on the results page."""
    ctx, page, errors = _page(browser, PHONE, service_workers="block")
    held = []
    # hold the exact-name check, so the moment between submit and the next page is observable
    page.route("**/api/cards/autocomplete?limit=1&*", lambda route: held.append(route))
    for submit in ("enter", "button"):
        page.goto(server + "/")
        page.locator("#q").type("throne")
        page.locator("ul.typeahead [role=option]").first.wait_for()
        if submit == "enter":
            page.press("#q", "Enter")
        else:
            page.locator("form.bigsearch button[type=submit]").tap()
        page.wait_for_function("() => document.querySelector('ul.typeahead').hidden")
        page.wait_for_timeout(300)           # a suggestion answering late must not reopen it
        assert page.locator("ul.typeahead").is_hidden()
        page.wait_for_function("n => n > 0", arg=len(held))
        held.pop().fulfill(status=200, content_type="application/json",
                           body='{"query": "throne", "data": [], "exact": null}')
        page.wait_for_url("**/search?q=throne")
        page.wait_for_load_state()
        first = page.locator("#results section.group").first
        first.wait_for()
        assert page.locator("ul.typeahead").is_hidden()
        box = first.bounding_box()
        assert box is not None and box["y"] < PHONE["height"], "the first result is below the first screen"
        page.screenshot(path=str(shots / f"typeahead-submitted-{submit}-390.png"))
    assert not errors, errors
    ctx.close()


def test_a_rules_question_shows_it_was_understood_on_the_first_screen(server, browser, shots):
    """A question typed the way a player asks it gets the rule that answers it, marked with the question."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/search?q=" + "when does the game end".replace(" ", "+"))
    answers = page.locator("#results p.answers").first
    answers.wait_for()
    assert "when does the game end" in answers.inner_text()
    box = answers.bounding_box()
    assert box is not None and box["y"] + box["height"] < PHONE["height"], "below the first screen"
    page.screenshot(path=str(shots / "rules-question-answers-390.png"))
    assert not errors, errors
    ctx.close()


def test_a_question_typed_wrong_says_how_it_was_read_and_answers_on_the_first_screen(server, browser, shots):
    """Thumbs on a phone: the misspelt words are read as the words meant, and the page says so."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/search?q=" + "can I reshufle my discrad pile".replace(" ", "+"))
    read = page.locator("#results p.spelling").first
    read.wait_for()
    assert read.inner_text() == "Read “reshufle” as “reshuffle”, “discrad” as “discard”"
    box = page.locator("#results .hit .snippet").first.bounding_box()
    assert box is not None and box["y"] < PHONE["height"], "the first answer is below the first screen"
    page.screenshot(path=str(shots / "spelling-390.png"))
    assert not errors, errors
    ctx.close()


def test_a_short_word_typed_wrong_offers_its_readings_and_one_tap_searches_it(server, browser, shots):
    """"tken" is token or taken: the page offers both, above the results, and a tap searches that question."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/search?q=tken+on+a+pile")
    offer = page.locator("#results p.didyoumean").first
    offer.wait_for()
    assert offer.inner_text().startswith("“tken”: did you mean token")
    b = offer.bounding_box()
    assert b is not None and b["y"] + b["height"] < PHONE["height"] / 2
    page.screenshot(path=str(shots / "did-you-mean-390.png"))
    offer.locator("a", has_text="token").click()
    page.wait_for_url("**/search?q=token*")
    page.locator("#results section.group").first.wait_for()
    assert page.locator("#results p.didyoumean").count() == 0
    assert not errors, errors
    ctx.close()


def test_an_out_of_date_faq_passage_says_so_and_links_the_current_rule(server, browser, shots):
    """The BGG FAQ says Coin tokens are spent only before buying; since 2022 the Complete Rules allow any
    time in your turn. A player who finds the old passage sees that, and the link to the current rule."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/search?q=" + "coin tokens spend before buying".replace(" ", "+"))
    note = page.locator("#results p.superseded").first
    note.wait_for()
    assert "Out of date." in note.inner_text()
    link = note.locator("a").first
    assert link.get_attribute("href").startswith("/rules/")
    note.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "faq-out-of-date-390.png"))
    link.click()
    page.wait_for_url("**/rules/**")
    assert not errors, errors
    ctx.close()


def test_search_form_works_without_javascript(server, browser):
    ctx = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(server + "/")
    page.fill("#q", "festmahl")
    page.press("#q", "Enter")
    page.wait_for_url("**/search?q=festmahl")
    assert page.locator("section.group h2 a").first.get_attribute("href") == "/cards/feast"
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_follow_a_cross_reference_to_a_section_and_back(server, browser, shots, viewport):
    ctx, page, errors = _page(browser, viewport)
    page.goto(server + "/cards/feast")
    link = page.locator("#r1 .body a", has_text="PLAY A CARD WHILE LEAVING IT")
    href = link.get_attribute("href")
    assert href.startswith("/rules/")
    link.click()
    page.wait_for_url("**" + href)
    assert page.locator("nav.crumbs").is_visible()
    assert "leaving it" in page.locator("h1").inner_text().lower()
    page.screenshot(path=str(shots / f"section-{viewport['width']}.png"), full_page=True)
    _no_overflow(page)
    page.go_back()
    page.wait_for_url("**/cards/feast")
    assert page.locator("#r1").is_visible()
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_replay_a_scenario(server, browser, shots, viewport):
    ctx, page, errors = _page(browser, viewport)
    page.goto(server + "/scenarios")
    page.fill("#scenario-filter", "throne room feast")          # the list filters as you type
    page.locator("a[href='/scenarios/throne-room-feast']").click()
    page.wait_for_url("**/scenarios/throne-room-feast")
    assert page.locator(".answer").is_visible() and page.locator(".status").count() == 0
    assert page.locator("#start .zones").is_visible()        # the table before the first move
    assert page.locator("ol.log li", has_text="not trashed again").count() >= 1
    page.locator("#step-1 details summary").click()
    assert page.locator("#step-1 .zones").is_visible()
    page.screenshot(path=str(shots / f"scenario-{viewport['width']}.png"), full_page=True)
    _no_overflow(page)
    page.locator("ol.log a.cite[href^='/cards/feast#r']").first.click()
    page.wait_for_url("**/cards/feast#r*")
    assert not errors, errors
    ctx.close()


def test_play_a_short_interaction_in_the_sandbox(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/try")
    page.fill("#kingdom", "Throne Room, Feast, Laboratory")
    page.fill("#p1_hand", "Throne Room, Feast, Copper*3")
    page.fill("#p1_deck", "Silver*5")
    page.fill("#p2_hand", "Copper*5")
    page.fill("#p2_deck", "")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Play Throne Room").click()
    page.locator("#now h2", has_text="choose an Action card").wait_for()
    page.screenshot(path=str(shots / "sandbox-question-390.png"), full_page=True)
    _no_overflow(page)
    _tap_targets_ok(page)
    page.locator("#now").get_by_role("button", name="Feast", exact=True).click()   # one tap
    for gain in ("Laboratory", "Silver"):
        page.locator("#now h2", has_text="gain a card").wait_for()
        page.locator("#now").get_by_role("button", name=gain, exact=True).click()
    page.get_by_role("button", name="End turn").wait_for()
    log = _game_log(page)
    assert "Alice gains Laboratory" in log and "Alice gains Silver" in log
    shared = page.url
    page.screenshot(path=str(shots / "sandbox-after-390.png"), full_page=True)
    # the link reproduces the game in a fresh browser context
    ctx2, page2, _ = _page(browser, DESKTOP)
    page2.goto(shared)
    assert "Alice gains Laboratory" in _game_log(page2)
    page2.screenshot(path=str(shots / "sandbox-1280.png"), full_page=True)
    _no_overflow(page2)
    ctx2.close()
    assert not errors, errors
    ctx.close()


def test_sandbox_three_players_attack_with_moat_downloads_a_passing_scenario(server, browser, shots, tmp_path):
    """Add a third player, play Militia, Bob reveals Moat, Carol discards; the file replays cleanly."""
    import subprocess
    import sys

    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/try")
    page.get_by_role("button", name="Add player").click()
    page.locator("#p3_name").wait_for()
    page.locator("details.more > summary").click()            # rulings are optional, folded away
    page.fill("#rulings", "Moat 2")
    page.fill("#kingdom", "Militia, Moat")
    page.fill("#p1_hand", "Militia, Copper*4")
    page.fill("#p1_deck", "Silver*5")
    page.fill("#p2_hand", "Moat, Copper*4")
    page.fill("#p2_deck", "Estate*5")
    page.fill("#p3_hand", "Copper*3, Estate*2")
    page.fill("#p3_deck", "Gold*5")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Play Militia").click()
    page.locator("#now h2", has_text="Bob: reveal a Reaction").wait_for()
    page.locator("#now").get_by_role("button", name="Moat", exact=True).click()
    page.locator("#now h2", has_text="Carol: discard down to 3").wait_for()
    page.screenshot(path=str(shots / "sandbox-3p-question-390.png"), full_page=True)
    _no_overflow(page)
    _tap_targets_ok(page)
    page.locator("label.opt", has_text="Estate").first.click()
    page.locator("label.opt", has_text="Estate").nth(1).click()
    page.get_by_role("button", name="Answer").click()
    page.get_by_role("button", name="End turn").wait_for()
    log = _game_log(page)
    assert "Bob is unaffected by Militia" in log
    ctx2, page2, _ = _page(browser, DESKTOP)
    page2.goto(page.url)
    page2.screenshot(path=str(shots / "sandbox-3p-1280.png"), full_page=True)
    _no_overflow(page2)
    ctx2.close()
    with page.expect_download() as dl:
        page.get_by_role("link", name="Download scenario").click()
    path = tmp_path / "sandbox.yaml"
    dl.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "card: Moat" in text and "ruling: 2" in text and "Your turn" not in text
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path)], cwd=root,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Bob is unaffected by Militia" in run.stdout
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("path", ["/rules", "/rules/viii-index", "/faq", "/cards/band-of-misfits",
                                  "/rules/vi-card-reference", "/api/", "/try"])
def test_reference_pages_fit_a_phone(server, browser, shots, path):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + path)
    _no_overflow(page)
    name = path.strip("/").replace("/", "_") or "home"
    page.screenshot(path=str(shots / f"{name}-390.png"))
    assert not errors, errors
    ctx.close()


# ------------------------------------------------------------------ disputes at the table
# Each journey starts on the home page and counts what the player does (typing a query is one
# interaction, each tap is one); the answer must then be on screen without scrolling.

def _in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.evaluate("() => window.innerHeight")
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= height


class Journey:
    """One player's way to an answer: counts interactions, checks each page, screenshots each step."""

    def __init__(self, page, shots: Path, name: str, viewport):
        self.page, self.shots, self.name, self.width = page, shots, name, viewport["width"]
        self.steps = 0

    def snap(self) -> None:
        self.page.wait_for_load_state()
        _no_overflow(self.page)
        _tap_targets_ok(self.page)
        self.page.screenshot(path=str(self.shots / f"{self.name}-{self.width}-{self.steps}.png"))

    def type(self, selector: str, text: str) -> None:
        self.steps += 1
        self.page.fill(selector, text)

    def tap(self, locator) -> None:
        self.steps += 1
        locator.first.click()
        self.page.wait_for_load_state()
        self.snap()


def _search(j: Journey, query: str) -> None:
    j.page.goto(j.page.context.server + "/")
    j.snap()
    j.type("#q", query)
    j.page.locator("#results .group").first.wait_for()


def _played_out(j: Journey) -> None:
    """Tap the first scenario search offers for the cards it recognised."""
    first = j.page.locator("#dispute a.scenhit").first
    first.wait_for()
    j.snap()
    j.tap(first)
    j.page.wait_for_url("**/scenarios/**")


# The disputes (name, query, how the player gets there, what the answer says) are bench/dispute_taps.py's,
# which times them on this tree and an earlier one.


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("name,query,how,answer", DISPUTES, ids=[d[0] for d in DISPUTES])
def test_a_dispute_is_settled_from_the_home_page(server, browser, shots, viewport, name, query, how, answer):
    ctx, page, errors = _page(browser, viewport)
    ctx.server = server
    j = Journey(page, shots, name, viewport)
    _search(j, query)
    if how == "scenario":
        _played_out(j)
        shown = page.locator(".answer li", has_text=answer)
    else:                                   # "first two hits": one of them is the ruling itself
        j.snap()
        hits = page.locator("#results .hit")
        found = next(((hits.nth(i), a) for i in range(min(2, hits.count())) for a in answer
                      if a in hits.nth(i).inner_text()), None)
        assert found is not None, f"{name}: none of {answer!r} is in the first two hits"
        hit, answer = found
        j.tap(hit.locator("a.hittitle").first)
        shown = page.locator(".ruling:target")
    assert shown.count() >= 1, f"{name}: {answer!r} is not where the journey ends ({page.url})"
    assert answer in shown.first.inner_text()
    assert _in_view(page, shown.first), f"{name}: the answer is below the first screen at {page.url}"
    assert j.steps <= 3, f"{name}: {j.steps} interactions"
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_dispute_built_in_the_sandbox_from_a_search(server, browser, shots, viewport):
    """Does Throne Room stay in play with Caravan? Search, 'Try it', Start, play it, and see."""
    ctx, page, errors = _page(browser, viewport)
    ctx.server = server
    j = Journey(page, shots, "sandbox-dispute", viewport)
    _search(j, "throne room caravan")
    page.locator("#try-dispute").wait_for()
    j.snap()
    j.tap(page.locator("#try-dispute"))
    page.wait_for_url("**/try?cards=*")
    # the table is laid out: Throne Room and its target in the current player's hand
    assert "Throne Room" in page.input_value("#p1_hand") and "Caravan" in page.input_value("#p1_hand")
    j.tap(page.get_by_role("button", name="Start this table"))   # on the first screen
    j.tap(page.get_by_role("button", name="Play Throne Room"))
    j.tap(page.locator("#now").get_by_role("button", name="Caravan", exact=True))
    j.tap(page.get_by_role("button", name="End turn"))
    shown = page.locator(".lastmove li", has_text="Throne Room, Caravan stay in play")
    assert shown.count() == 1 and _in_view(page, shown)
    assert j.steps <= 6, j.steps
    assert not errors, errors
    ctx.close()


def test_sandbox_setup_errors_are_all_shown_beside_their_fields(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/try")
    page.fill("#kingdom", "KC, Burggraben, Camel Train")          # abbreviation, German name, not defined yet (Menagerie)
    page.fill("#p1_hand", "Thron Room, Copper*4")
    page.fill("#p2_hand", "Blorp")
    page.get_by_role("button", name="Start", exact=True).click()
    page.locator("#err-kingdom").wait_for()
    page.screenshot(path=str(shots / "sandbox-errors-390.png"), full_page=True)
    kingdom = page.locator("#err-kingdom").inner_text()
    assert "Camel Train" in kingdom and "not in the sandbox yet" in kingdom
    assert "King" not in kingdom and "Moat" not in kingdom        # KC and Burggraben were understood
    assert "did you mean Throne Room" in page.locator("#err-p1_hand").inner_text()
    assert "not a card name" in page.locator("#err-p2_hand").inner_text()
    _no_overflow(page)
    # the form answers 400 (a refused input), which Chromium logs; nothing else may go wrong
    assert all("status of 400" in e for e in errors), errors
    ctx.close()


def test_open_a_scenario_in_the_sandbox_and_replay_it(server, browser, shots):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/scenarios/seaside-caravan-throne-room-both-stay")
    page.get_by_role("link", name="Open in sandbox").click()
    page.wait_for_url("**/try?scenario=*")
    assert page.input_value("#p1_hand") == "Throne Room, Caravan, Estate"
    page.screenshot(path=str(shots / "scenario-to-sandbox-390.png"), full_page=True)
    page.get_by_role("button", name="Start this table").click()
    page.wait_for_url("**/try?s=*")
    assert "Throne Room, Caravan stay in play" in _game_log(page)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("path", ["/cards/possession", "/cards/throne-room", "/scenarios", "/cards",
                                  "/scenarios/moat-vs-witch"])
def test_pages_scan_on_a_phone(server, browser, shots, path):
    """Possession's page, the longest, fits in under six phone screens; the header stays short."""
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + path)
    header = page.locator("header.top").bounding_box()["height"]
    height = page.evaluate("() => document.scrollingElement.scrollHeight")
    page.screenshot(path=str(shots / f"scan{path.replace('/', '_')}-390.png"), full_page=height < 8000)
    # every section in the menu (issue #35): on a phone it wraps into a second row
    assert header <= 130, f"{path}: header {header} px"
    if path == "/cards/possession":
        assert height < 6 * PHONE["height"], f"{path}: {height} px"
        # every fold says it opens
        markers = page.evaluate("""() => Array.from(document.querySelectorAll('details > summary'))
            .filter(s => s.offsetParent !== null)
            .map(s => getComputedStyle(s, '::before').content)""")
        assert markers and all(m not in ("none", "normal", "") for m in markers), markers
    _no_overflow(page)
    _tap_targets_ok(page)
    assert not errors, errors
    ctx.close()
