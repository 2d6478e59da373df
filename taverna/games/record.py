"""Game records (RULES.md §4): load, validate, replay and write.

A record is the deals and the actions of one game, enough to replay it
exactly. The same code serves every game: the game module parses its own
deals and actions.

    >>> import json
    >>> from taverna.games.record import replay_text
    >>> text = open("taverna/examples/dominoes-2p.json").read()
    >>> result, status = replay_text(text)
    >>> status, result["ok"]
    (0, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import get_game
from .base import (
    JSON,
    Action,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    SettingsError,
    State,
    event_json,
)

#: exit statuses of `taverna replay` (RULES.md §4)
OK, ILLEGAL, MALFORMED = 0, 1, 2

_FIELDS = {"game", "seats", "settings", "deals", "actions"}


@dataclass
class Record:
    """A parsed, statically valid record."""

    game: type[State]
    seats: int
    settings: dict[str, Any]
    deals: list[Any]
    actions: list[Action]

    def to_json(self) -> JSON:
        return {
            "game": self.game.game,
            "seats": self.seats,
            "settings": dict(self.settings),
            "deals": [self.game.deal_json(d) for d in self.deals],
            "actions": [a.to_json() for a in self.actions],
        }


def parse_record(obj: Any) -> Record:
    """Check a record's shape, deals and actions as data; raises MalformedRecord."""
    if not isinstance(obj, dict):
        raise MalformedRecord("a record must be a JSON object")
    extra = set(obj) - _FIELDS
    if extra:
        field = sorted(extra)[0]
        if isinstance(obj.get("record"), dict):
            # a golden test file wraps its record: {"why", "record", "expect"}
            raise MalformedRecord(
                f"unknown record field {field!r}: this looks like a golden test file "
                "(why, record, expect); replay its record: jq .record FILE | taverna replay -"
            )
        raise MalformedRecord(f"unknown record field {field!r}")
    missing = [f for f in ("game", "seats", "deals", "actions") if f not in obj]
    if missing:
        raise MalformedRecord(f"the record has no {missing[0]!r}")
    try:
        cls = get_game(obj["game"]) if isinstance(obj["game"], str) else None
    except KeyError as e:
        raise MalformedRecord(str(e.args[0])) from None
    if cls is None:
        raise MalformedRecord(f"game must be a name, not {obj['game']!r}")
    settings_raw = obj.get("settings", {})
    if not isinstance(settings_raw, dict):
        raise MalformedRecord("settings must be an object")
    try:
        seats = cls.check_seats(obj["seats"])
        settings = cls.check_settings(seats, settings_raw)
    except SettingsError as e:
        raise MalformedRecord(str(e)) from None
    deals_raw, actions_raw = obj["deals"], obj["actions"]
    if not isinstance(deals_raw, list) or not deals_raw:
        raise MalformedRecord("deals must be a non-empty list")
    if not isinstance(actions_raw, list):
        raise MalformedRecord("actions must be a list")
    deals = [cls.parse_deal(d, seats, settings, i) for i, d in enumerate(deals_raw)]
    actions = []
    for i, a in enumerate(actions_raw):
        try:
            actions.append(cls.parse_action(a, seats))
        except InvalidAction as e:
            raise MalformedRecord(f"action {i}: {e}") from None
    return Record(cls, seats, settings, deals, actions)


def load_record(text: str | bytes) -> Record:
    """Parse a record from JSON text; raises MalformedRecord."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise MalformedRecord(f"not JSON: {e}") from None
    return parse_record(obj)


@dataclass
class Replay:
    """The outcome of replaying a record: the final state, its events, any error."""

    state: State
    events: list[Event] = field(default_factory=list)
    error_index: int | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> JSON:
        out: JSON = {"ok": self.ok, **self.state.result()}
        out["events"] = [event_json(e) for e in self.events]
        if not self.ok:
            out["error"] = {"index": self.error_index, "message": self.error}
        return out


def replay(record: Record) -> Replay:
    """Apply a record's actions one by one; stop at the first illegal one."""
    try:
        state = record.game.start(record.seats, record.settings, record.deals)
    except IllegalAction as e:
        raise MalformedRecord(str(e)) from None
    result = Replay(state, list(state.initial_events))
    events = result.events
    for i, action in enumerate(record.actions):
        try:
            events.extend(state.apply(action))
        except IllegalAction as e:
            result.error_index = i
            result.error = str(e)
            break
    return result


def replay_text(text: str | bytes) -> tuple[JSON, int]:
    """Replay JSON text: the JSON result of RULES.md §4 and the exit status."""
    try:
        outcome = replay(load_record(text))
    except MalformedRecord as e:
        return {"ok": False, "malformed": str(e)}, MALFORMED
    return outcome.to_json(), OK if outcome.ok else ILLEGAL


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's record replayed: for each step, the action, every event and
    the table with all hands revealed (step 0 is the first deal).

    The spectator's view plus what each seat alone saw (the game's
    :attr:`~taverna.games.base.State.private_fields`): ``hands`` (each seat's
    ``hand``) and, for any other private field ``f``, ``f_by`` (one per seat): what a
    replay shows once the game is over and nothing is secret.
    """
    rec = parse_record(record)
    state = rec.game.start(rec.seats, rec.settings, rec.deals)

    def step(action: Any, events: list[Any]) -> dict[str, Any]:
        view = state.view(None)
        seat_views = [state.view(s) for s in range(rec.seats)]
        view["hands"] = [v.get("hand", []) for v in seat_views]
        for name in rec.game.private_fields:
            if name != "hand" and name in seat_views[0]:
                view[f"{name}_by"] = [v[name] for v in seat_views]
        return {
            "action": None if action is None else action.to_json(),
            "events": [event_json(e) for e in events],
            "view": view,
        }

    steps = [step(None, state.initial_events)]
    for action in rec.actions:
        steps.append(step(action, state.apply(action)))
    # JSON keys of private parts are strings; a round trip makes the answer plain JSON
    plain: list[dict[str, Any]] = json.loads(json.dumps(steps))
    return plain
