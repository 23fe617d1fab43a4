"""Issue #35: axe-core (vendored, tests/vendor/axe-core) finds no accessibility violation on the pages a
player uses at the table: home, search results, a card, a scenario and the sandbox, on a phone (390x844)
and a desktop (1280), in light and dark mode, with the site's real Content-Security-Policy in force
(axe is added as an init script, which the policy does not govern)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from test_browser import CHROMIUM, DESKTOP, NEEDS_CHROMIUM, PHONE, browser, server, shots  # noqa: F401

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NEEDS_CHROMIUM)

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"   # axe-core 4.14.1
PAGES = ["/", "/search?q=throne+room+feast", "/cards/throne-room", "/scenarios/throne-room-feast",
         "/scenarios", "/try", "/try?cards=Throne+Room,Feast", "/offline"]
RUN = """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v =>
  `${v.id} (${v.impact}): ${v.help}\\n` + v.nodes.slice(0, 4).map(n => "    " + n.target.join(" ") + " -- " +
  (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 220)).join("\\n")))"""


def test_vendored_axe_is_the_pinned_release():
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_axe_violations(server, browser, shots, viewport, scheme):
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() == AXE_SHA256
    ctx = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=viewport is PHONE,
                              has_touch=viewport is PHONE, color_scheme=scheme, service_workers="block")
    ctx.add_init_script(path=str(AXE))
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    found = {}
    for path in PAGES:
        page.goto(server + path)
        if path == "/offline":       # as the service worker shows it with no signal: the notice under the header
            page.evaluate("() => { document.getElementById('offline-notice').hidden = false; }")
        violations = page.evaluate(RUN)
        if violations:
            found[path] = violations
            page.screenshot(path=str(shots / f"axe-{scheme}-{viewport['width']}-{path.strip('/').replace('/', '_')[:40] or 'home'}.png"))
    # the card-name list open under each search box (the home page's and the header's)
    for path, box, typed in [("/", "#q", "thro"), ("/cards/throne-room", "form.topsearch input[name=q]", "burgg")]:
        page.goto(server + path)
        page.fill(box, typed)
        page.locator("ul.typeahead [role=option]").first.wait_for()
        page.keyboard.press("ArrowDown")
        violations = page.evaluate(RUN)
        if violations:
            found[f"{path} with the card names open"] = violations
    ctx.close()
    assert not found, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in found.items())
