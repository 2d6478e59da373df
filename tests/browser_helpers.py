"""Debian's Chromium for Playwright: one place for its path, flags and launch.

`make test` installs Chromium first (``scripts/ensure-chromium.sh``); a test
tool never downloads its own browser.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextlib.contextmanager
def chromium(playwright_api: Any) -> Iterator[Any]:
    """A headless Chromium (installed by the project's script if it is missing)."""
    if not os.path.exists(CHROMIUM):
        subprocess.run([str(ROOT / "scripts" / "ensure-chromium.sh")], check=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


#: where the browser tests leave their screenshots, when asked for them
ARTIFACTS = ROOT / "test-artifacts"
#: ``TAVERNA_TEST_SHOTS=1`` asks for them: a full-page PNG costs the browser about half a
#: second of CPU, which every run paid for pictures nobody looked at (no test reads them)
SHOTS = os.environ.get("TAVERNA_TEST_SHOTS", "") not in ("", "0")


def screenshot(target: Any, name: str, **options: Any) -> None:
    """Save a picture of ``target`` (a page or a locator) as ``test-artifacts/NAME.png``
    when ``TAVERNA_TEST_SHOTS`` is set; otherwise nothing."""
    if SHOTS:
        ARTIFACTS.mkdir(exist_ok=True)
        target.screenshot(path=str(ARTIFACTS / f"{name}.png"), **options)


# ----------------------------------------------------------------- accessibility

#: the two sizes every page is checked at: a laptop and a phone
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = (DESKTOP, PHONE)

#: axe-core's rules, all of them but two kinds that axe itself leaves off unless asked:
#: those it has deprecated and those of WCAG's AAA level (Taverna aims at AA). Its
#: experimental rules run too (label-content-name-mismatch is one).
AXE_RUN = """async () => {
  const rules = Object.fromEntries(axe.getRules()
    .filter((r) => !r.tags.includes('deprecated') && !r.tags.includes('wcag2aaa'))
    .map((r) => [r.ruleId, { enabled: true }]));
  const result = await axe.run(document, { rules, resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({
      target: n.target.map(String), html: n.html, why: n.failureSummary || '',
    })),
  }));
}"""

#: two frames: the page has drawn what a resize made it lay out again
#: the page at rest: the motions already under way (started before reduced motion was
#: asked for: a tile in flight overlaps its neighbours) ended where they end, two frames
SETTLED = """() => {
  for (const a of document.getAnimations()) {
    try { a.finish(); } catch { /* an endless one (a pulse): reduced motion stops it */ }
  }
  return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""

_axe_script: str | None = None

#: the checks of this run and the seconds they took (said at the end: tests/conftest.py)
SPENT = {"checks": 0, "runs": 0, "seconds": 0.0}


def _axe() -> str:
    global _axe_script
    if _axe_script is None:
        from axe_playwright_python.sync_playwright import Axe

        _axe_script = Axe().axe_script
    return _axe_script


def violations(page: Any) -> list[dict[str, Any]]:
    """What axe finds wrong with the page as it is now (its size, its state)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe())
    found: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    return found


def report(found: list[dict[str, Any]]) -> str:
    """Violations as people read them: rule, impact, what to fix, and each element."""
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for n in v["nodes"]:
            lines.append(f"    {' '.join(n['target'])}")
            lines.append(f"        {' '.join(n['html'].split())[:300]}")
            for why in n["why"].splitlines()[1:]:
                lines.append(f"        - {why.strip()}")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str, sizes: tuple[dict[str, int], ...] = SIZES) -> None:
    """axe-core finds nothing wrong with the page as it is, at each of ``sizes``.

    The page is judged at rest and from its top: animations stop (the page honours
    prefers-reduced-motion), so a panel halfway through fading in is not taken for one
    of too little contrast, and the page is scrolled to the top, so that a control
    scrolled under the sticky top bar is not taken for one too small to touch. The
    viewport is set to each size in turn; size and scroll are put back afterwards.
    Call it where nothing moves the page meanwhile (a player's turn: the bots wait).
    """
    start = time.perf_counter()
    before = page.viewport_size
    scrolled = page.evaluate("[scrollX, scrollY]")
    page.emulate_media(reduced_motion="reduce")
    problems = []
    try:
        for size in sizes:
            if page.viewport_size != size:
                page.set_viewport_size(size)
            page.evaluate("scrollTo(0, 0)")
            page.evaluate(SETTLED)
            found = violations(page)
            SPENT["runs"] += 1
            if found:
                problems.append(f"--- at {size['width']}×{size['height']}:\n{report(found)}")
    finally:
        if before and page.viewport_size != before:
            page.set_viewport_size(before)
        page.evaluate("([x, y]) => scrollTo(x, y)", scrolled)
        page.emulate_media(reduced_motion="null")
        SPENT["checks"] += 1
        SPENT["seconds"] += time.perf_counter() - start
    assert not problems, f"axe-core: {where}\n" + "\n".join(problems)


# ------------------------------------------------------------------ the client's words

STATIC = ROOT / "taverna" / "web" / "static"


def game_folders() -> dict[str, Path]:
    """Each installed game's part of the client (its board, strings and rules)."""
    from taverna.server.pages import game_parts

    return game_parts()


def strings(lang: str) -> dict[str, str]:
    """The client's strings in ``lang`` as a page has them: its own (``js/lang``) and
    every installed game's (``lang/`` of its part)."""
    out: dict[str, str] = json.loads((STATIC / "js" / "lang" / f"{lang}.json").read_text())
    for folder in game_folders().values():
        own = folder / "lang" / f"{lang}.json"
        if own.is_file():
            out.update(json.loads(own.read_text()))
    return out


def rules(lang: str) -> dict[str, Any]:
    """The "How to play" texts in ``lang`` as /rules has them: the page's own words and
    common sections (``static/rules``), and each game's (``rules/`` of its part)."""
    out: dict[str, Any] = json.loads((STATIC / "rules" / f"{lang}.json").read_text())
    out["games"] = {
        name: json.loads((folder / "rules" / f"{lang}.json").read_text())
        for name, folder in game_folders().items()
        if (folder / "rules" / f"{lang}.json").is_file()
    }
    return out
