"""Issue #35 in a real Chromium: the site installs as an app, keeps all rules offline, and with the
network cut a card page never opened before, the card-name search and the offline notice still work.

The server of this module is its own, so that "no signal" can be made real: after "Keep all rules
offline" the server is shut down and the browser context is put offline (context.set_offline), so
nothing a page shows afterwards can have come from the network.
"""
from __future__ import annotations

import threading

import pytest

from test_browser import CHROMIUM, NEEDS_CHROMIUM, PHONE, _page, browser, shots  # noqa: F401

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)


@pytest.fixture(scope="module")
def own_server(built_index):
    from werkzeug.serving import make_server

    from app.web import create_app

    srv = make_server("127.0.0.1", 0, create_app({"DB_PATH": built_index / "rules.db"}), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    state = {"url": f"http://127.0.0.1:{srv.server_port}", "stop": srv.shutdown}
    yield state
    srv.shutdown()
    thread.join(timeout=5)


def test_keep_all_rules_offline_then_use_the_site_with_no_signal(own_server, browser, shots):
    base = own_server["url"]
    ctx, page, errors = _page(browser, PHONE)
    page.goto(base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    cdp = ctx.new_cdp_session(page)
    # Chromium's own installability check: every criterion met (manifest, icons, worker), except that a
    # test's browser context is incognito-like, where nothing installs
    found = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert found <= {"in-incognito"}, found
    assert page.locator("#offline-notice").is_hidden()

    keep = page.get_by_role("button", name="Keep all rules offline")
    keep.scroll_into_view_if_needed()
    keep.click()
    status = page.locator("#keep-status[data-kept=all]")
    status.wait_for(timeout=240_000)
    said = status.inner_text()
    print(f"\n{said}")
    assert said.startswith("Kept on this phone: ") and " pages (" in said
    pages = int(said.split(": ")[1].split(" ")[0])
    mb = float(said.split("(")[1].split(" MB")[0])
    assert pages > 1100 and 1 < mb < 12, said            # every card and section; a few MB, not hundreds
    page.screenshot(path=str(shots / "offline-kept-390.png"))

    own_server["stop"]()                                 # no server any more ...
    ctx.set_offline(True)                                # ... and no network

    resp = page.goto(base + "/cards/witch")              # never opened: kept by "Keep all rules offline"
    assert resp.from_service_worker
    assert page.locator("h1").inner_text().startswith("Witch")
    notice = page.locator("#offline-notice")
    assert notice.is_visible() and "Full-text search and the sandbox need the server" in notice.inner_text()
    page.screenshot(path=str(shots / "offline-card-390.png"))

    box = page.locator("form.topsearch input[name=q]")
    box.fill("burgg")                                     # a German name, completed from the kept name list
    option = page.locator(".typeahead [role=option]", has_text="Moat")
    option.wait_for()
    page.screenshot(path=str(shots / "offline-typeahead-390.png"))
    option.click()
    page.wait_for_url("**/cards/moat")
    assert page.locator("h1").inner_text().startswith("Moat")

    box = page.locator("form.topsearch input[name=q]")
    box.fill("Throne Room")                               # Enter on a whole card name opens the card
    box.press("Enter")
    page.wait_for_url("**/cards/throne-room")
    assert page.locator("h1").inner_text().startswith("Throne Room")

    page.goto(base + "/search?q=does+moat+block+witch")   # full-text search needs the server: it says so
    assert page.locator("h1").inner_text() == "With no signal"
    assert "Full-text search" in page.locator("main").inner_text()
    page.screenshot(path=str(shots / "offline-search-390.png"))
    page.goto(base + "/try")
    assert page.locator("h1").inner_text() == "With no signal"
    assert not [e for e in errors if "net::ERR" not in e], errors
    ctx.close()
