"""What the whole run has to say at its end."""

from __future__ import annotations

from typing import Any

from taverna import native

from .browser_helpers import SPENT


def pytest_report_header() -> str:
    """Which build of the engines the tests run (taverna/native.py), and why."""
    return f"taverna engines: {native.status()}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The build of the engines the tests ran (the header is quiet under ``-q``), and the
    time the accessibility checks took (tests/browser_helpers.py: assert_accessible)."""
    terminalreporter.write_line(f"taverna engines: {native.status()}")
    if SPENT["checks"]:
        terminalreporter.write_line(
            f"axe-core: {SPENT['checks']} checks, {SPENT['runs']} runs,"
            f" {SPENT['seconds']:.1f} s in all"
        )
