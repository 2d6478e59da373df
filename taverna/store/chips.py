"""Chips: the only way they move.

:func:`move_chips` refuses to take a balance below zero and writes the ledger row in
the same transaction; the database's check constraints (``chips >= 0``,
``balance >= 0``) stand behind it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .errors import Conflict
from .models import ChipEntry, Player

#: what a new account gets
WELCOME_CHIPS = 1000


class NotEnoughChips(Conflict):
    """A player has fewer chips than a movement needs."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message, "not_enough_chips", **params)


def move_chips(s: Session, player_id: str, delta: int, reason: str, table_id: str | None) -> int:
    """Add ``delta`` chips (negative: take) and write the ledger row; never below zero."""
    balance = s.execute(
        update(Player)
        .where(Player.id == player_id, Player.chips + delta >= 0)
        .values(chips=Player.chips + delta)
        .returning(Player.chips)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if balance is None:
        have = s.execute(select(Player.chips).where(Player.id == player_id)).scalar_one_or_none()
        raise NotEnoughChips(f"{-delta} chips needed, {have or 0} held", chips=have or 0)
    s.add(
        ChipEntry(
            player_id=player_id, table_id=table_id, delta=delta, balance=balance, reason=reason
        )
    )
    s.flush()
    return int(balance)
