"""The types of the commands' arguments.

argparse turns an ArgumentTypeError into "taverna CMD: error: argument --x: why", exit 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

#: ``sub.add_parser`` of the ``taverna`` parser's subcommands: a module adds its
#: commands with it
AddParser = Callable[..., argparse.ArgumentParser]


def whole(text: str) -> int:
    """A whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def number(text: str) -> float:
    """A finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


N = TypeVar("N", int, float)


def checked(parse: Callable[[str], N], ok: Callable[[N], bool], needs: str) -> Callable[[str], N]:
    """An argparse type: ``parse`` the text, then refuse a value for which ``ok`` fails."""

    def check(text: str) -> N:
        value = parse(text)
        if not ok(value):
            raise argparse.ArgumentTypeError(f"must be {needs}, not {text}")
        return value

    return check


at_least_one = checked(whole, lambda v: v >= 1, "at least 1")
not_negative_int = checked(whole, lambda v: v >= 0, "0 or more")
positive = checked(number, lambda v: v > 0, "more than 0")
not_negative = checked(number, lambda v: v >= 0, "0 or more")


def port_number(text: str) -> int:
    """A port, 0 to 65535 (0: any free port)."""
    value = whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535 (0: any free port), not {value}")
    return value
