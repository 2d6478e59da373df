"""Debian's Chromium for Playwright: one place for its path, flags and launch.

`make test` installs Chromium first (``scripts/ensure-chromium.sh``); a test
tool never downloads its own browser.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
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
