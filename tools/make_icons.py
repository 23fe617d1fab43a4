"""Make the app icons (static/icon-192.png, icon-512.png) from static/icon.svg, drawn by the real browser.

    python tools/make_icons.py

One drawing (the SVG) for every size, so the installed app's icon and the manifest's SVG icon
agree; Debian's Chromium (the browser the tests drive) renders it, so no imaging library is needed.
Run it again after changing icon.svg, and commit the PNGs.
"""
from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "app" / "web" / "static"
SIZES = (192, 512)


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (STATIC / "icon.svg").read_text()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(f'<html><body style="margin:0">{svg.replace("<svg ", f"<svg width={size} height={size} ", 1)}'
                             "</body></html>")
            out = STATIC / f"icon-{size}.png"
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": size, "height": size})
            print(f"{out.relative_to(STATIC.parent.parent.parent)}: {out.stat().st_size} bytes")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
