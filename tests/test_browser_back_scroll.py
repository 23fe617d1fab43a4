"""Issue #35: the back button returns a player to the place they left a results page: the result they
tapped is where it was on the screen, whether the results came as they typed or from a submitted search."""
from __future__ import annotations

import pytest

from test_browser import CHROMIUM, NEEDS_CHROMIUM, PHONE, _page, browser, server, shots  # noqa: F401

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)


@pytest.mark.parametrize("how", ["typed", "submitted"])
def test_back_from_a_result_restores_the_place_on_the_results_page(server, browser, shots, how):
    ctx, page, errors = _page(browser, PHONE)
    page.goto(server + "/")
    page.fill("#q", "moat witch")
    if how == "submitted":
        page.press("#q", "Enter")
        page.wait_for_url("**/search?q=*")
    page.locator("#results .hit").nth(8).wait_for()
    page.wait_for_load_state("networkidle")            # the "played out" box is in, the page has its height
    result = page.locator("#results .hit a.hittitle").nth(8)
    href = result.get_attribute("href")
    result.scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, -300)")  # the tapped result somewhere down the screen (at once:
    page.wait_for_function("() => window.scrollY > 1000")  # a wheel's scroll may still be moving when measured)
    top = result.bounding_box()["y"]
    page.screenshot(path=str(shots / f"back-{how}-before-390.png"))
    result.click()
    page.wait_for_url(f"**{href.split('#')[0]}*")
    page.go_back()
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    again = page.locator(f'#results a.hittitle[href="{href}"]').first
    page.screenshot(path=str(shots / f"back-{how}-after-390.png"))
    assert page.evaluate("() => window.scrollY") > 1000, "Back lands at the top of the results"
    assert abs(again.bounding_box()["y"] - top) <= 4, (top, again.bounding_box()["y"])
    assert not errors, errors
    ctx.close()
