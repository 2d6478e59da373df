"""Where the commands print their tables: a terminal, or a file or a pipe in full."""

from __future__ import annotations

from rich.console import Console

#: wide enough for any of our tables: a file or a pipe has no width to fit
_UNBOUNDED = 1000


def stdout_console() -> Console:
    """A console on stdout. A terminal gets tables fitted to its width; a file or a
    pipe gets every figure in full (rich would wrap at 80 columns and cut values)."""
    console = Console()
    if console.is_terminal:
        return console
    return Console(width=_UNBOUNDED)
