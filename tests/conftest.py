"""What the whole run has to say at its end."""

from __future__ import annotations

from typing import Any

from .browser_helpers import SPENT


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The time the accessibility checks took (tests/browser_helpers.py: assert_accessible)."""
    if SPENT["checks"]:
        terminalreporter.write_line(
            f"axe-core: {SPENT['checks']} checks, {SPENT['runs']} runs,"
            f" {SPENT['seconds']:.1f} s in all"
        )
