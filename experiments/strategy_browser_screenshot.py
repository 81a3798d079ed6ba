"""A screenshot of the strategy browser (``vcfr view``) in headless Chromium, after clicking a walk of actions.

Run (Chromium from Debian's package, ``apt-get install -y chromium``; Playwright from the dev extra)::

    .venv/bin/python experiments/strategy_browser_screenshot.py build/blueprints/2025/blueprint_bounty.h5 \\
        --walk R6 --out results/strategy_browser.png

serves the file as ``vcfr view`` does (on a free port), opens the page, clicks the actions named by
``--walk`` (labels as the page shows them, comma-separated, from the root) and saves a full-page PNG.
Output: ``results/strategy_browser.png`` (the README's `vcfr view` section shows it).
"""

from __future__ import annotations

import argparse
import shutil
import threading
from pathlib import Path

from solver.view import DEFAULT_DEALS
from solver.view.browser import StrategyView
from solver.view.server import bind


def screenshot(
    strategy: Path, out: Path, *, walk: tuple[str, ...] = (), compare: Path | None = None, width: int = 1500
) -> list[int]:
    """Serve ``strategy`` (and ``compare``), click ``walk`` from the root, write ``out``; returns the nodes visited."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium binary on PATH (Debian: apt-get install -y chromium)")
    views = [StrategyView.open(strategy, deals=DEFAULT_DEALS)]
    if compare is not None:
        views.append(StrategyView.open(compare, deals=DEFAULT_DEALS))
    server = bind(views)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    visited = [0]
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(f"http://127.0.0.1:{server.server_port}/")
                page.wait_for_selector("body[data-node='0'] #columns .column")
                for label in walk:
                    button = page.locator(f"#actions button[data-label='{label}']")
                    if button.count() != 1:
                        shown = page.locator("#actions button").evaluate_all("(all) => all.map((b) => b.dataset.label)")
                        raise SystemExit(f"no action {label!r} at node {visited[-1]}: the page shows {shown}")
                    child = int(button.get_attribute("data-node"))
                    button.click()
                    page.wait_for_selector(f"body[data-node='{child}'] #columns .column")
                    visited.append(child)
                page.mouse.move(0, 0)  # no button left hovered where the last click was
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=True)
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return visited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategy", type=Path)
    parser.add_argument("--compare", type=Path, default=None)
    parser.add_argument("--walk", default="", help="action labels to click from the root, comma-separated")
    parser.add_argument("--out", type=Path, default=Path("results/strategy_browser.png"))
    arguments = parser.parse_args()
    walk = tuple(label for label in arguments.walk.split(",") if label)
    visited = screenshot(arguments.strategy, arguments.out, walk=walk, compare=arguments.compare)
    print(f"wrote {arguments.out} (nodes {' -> '.join(map(str, visited))})")


if __name__ == "__main__":
    main()
