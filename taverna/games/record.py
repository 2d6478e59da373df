"""Game records (docs/rules.md §4): load, validate, replay and write.

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

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

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
from .catalog import get_game

#: exit statuses of `taverna replay` (docs/rules.md §4.4)
OK: Final = 0
ILLEGAL: Final = 1
MALFORMED: Final = 2

_FIELDS: Final = {"game", "seats", "settings", "deals", "actions", "signals"}
_SIGNAL_FIELDS: Final = {"seat", "sign", "after", "caught_by"}


@dataclass
class Record:
    """A parsed, statically valid record."""

    game: type[State]
    seats: int
    settings: dict[str, Any]
    deals: list[Any]
    actions: list[Action]
    #: signals made beside the actions (Mus señas, docs/rules.md §3.8.4), in order of ``after``
    signals: list[JSON] = field(default_factory=list)

    def to_json(self) -> JSON:
        out = {
            "game": self.game.game,
            "seats": self.seats,
            "settings": self.game.record_settings(self.settings),
            "deals": [self.game.deal_json(d) for d in self.deals],
            "actions": [a.to_json() for a in self.actions],
        }
        if self.signals:
            out["signals"] = [dict(x) for x in self.signals]
        return out


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_signals(cls: type[State], seats: int, raw: Any, n_actions: int) -> list[JSON]:
    """A record's ``signals`` checked as data (docs/rules.md §3.8.4): each
    ``{"seat", "sign", "after", "caught_by"}`` with a known sign, ``after`` from 0 to
    the number of actions and never going back; raises MalformedRecord. Whether each
    was true and in place is the replay's question."""
    if not isinstance(raw, list):
        raise MalformedRecord("signals must be a list")
    if raw and not cls.signal_signs:
        raise MalformedRecord(f"{cls.game} has no signals")
    out: list[JSON] = []
    last = 0
    for i, x in enumerate(raw):
        where = f"signal {i}"
        if not isinstance(x, dict):
            raise MalformedRecord(f"{where} must be an object")
        missing = sorted(_SIGNAL_FIELDS - set(x))
        extra = sorted(set(x) - _SIGNAL_FIELDS)
        if missing or extra:
            raise MalformedRecord(
                f"{where} has no {missing[0]!r}" if missing else f"{where} takes no {extra[0]!r}"
            )
        seat, sign, after, caught = x["seat"], x["sign"], x["after"], x["caught_by"]
        if not _whole(seat) or not 0 <= seat < seats:
            raise MalformedRecord(f"{where}: seat must be 0..{seats - 1}, not {seat!r}")
        if sign not in cls.signal_signs:
            raise MalformedRecord(
                f"{where}: {sign!r} is not a signal of {cls.game} ({', '.join(cls.signal_signs)})"
            )
        if not _whole(after) or not last <= after <= n_actions:
            raise MalformedRecord(
                f"{where}: after must be a number of actions from {last} to {n_actions} "
                f"(signals in the order made), not {after!r}"
            )
        if not isinstance(caught, list) or not all(_whole(c) and 0 <= c < seats for c in caught):
            raise MalformedRecord(f"{where}: caught_by must be a list of seats, not {caught!r}")
        last = after
        out.append({"seat": seat, "sign": sign, "after": after, "caught_by": list(caught)})
    return out


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
    signals = parse_signals(cls, seats, obj.get("signals", []), len(actions))
    return Record(cls, seats, settings, deals, actions, signals)


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
    #: the index in the record's ``signals`` of the signal refused, if that was the error
    error_signal: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> JSON:
        out: JSON = {"ok": self.ok, **self.state.result()}
        out["events"] = [event_json(e) for e in self.events]
        if not self.ok:
            out["error"] = {"index": self.error_index, "message": self.error}
            if self.error_signal is not None:
                out["error"]["signal"] = self.error_signal
        return out


def replay(record: Record) -> Replay:
    """Apply a record's actions one by one, each signal at its ``after``; stop at the
    first illegal one (a signal's error names it: ``error_signal``)."""
    try:
        state = record.game.start(record.seats, record.settings, record.deals)
    except IllegalAction as e:
        raise MalformedRecord(str(e)) from None
    result = Replay(state, list(state.initial_events))
    events = result.events
    signals = record.signals
    k = 0
    for i in range(len(record.actions) + 1):
        while k < len(signals) and signals[k]["after"] == i:
            try:
                state.replay_signal(signals[k])
            except IllegalAction as e:
                result.error_index = i
                result.error_signal = k
                result.error = f"signal {k}: {e}"
                return result
            k += 1
        if i == len(record.actions):
            break
        try:
            events.extend(state.apply(record.actions[i]))
        except IllegalAction as e:
            result.error_index = i
            result.error = str(e)
            break
    return result


def replay_text(text: str | bytes) -> tuple[JSON, int]:
    """Replay JSON text: the JSON result of docs/rules.md §4.4 and the exit status."""
    try:
        outcome = replay(load_record(text))
    except MalformedRecord as e:
        return {"ok": False, "malformed": str(e)}, MALFORMED
    return outcome.to_json(), OK if outcome.ok else ILLEGAL


def figures(record: JSON, seat: int) -> dict[str, int]:
    """What ``seat`` did in a finished game, as its game counts it for a player's page
    (:meth:`~taverna.games.base.State.count_figures`): ``{name: count}`` for every name
    of the game's ``figure_names``, from ``record`` (docs/rules.md §4.1) replayed by the
    engine, so the events counted are exactly the game's. A game without figures
    answers ``{}`` and replays nothing. A replay that stops at an illegal action counts
    the events before it; a malformed record raises MalformedRecord.

        >>> record = json.load(open("taverna/examples/dominoes-2p.json"))
        >>> figures(record, 0)
        {'dominoes': 7, 'scoring_plays': 42}
    """
    parsed = parse_record(record)
    game = parsed.game
    if not game.figure_names:
        return {}
    counted = game.count_figures(replay(parsed).events, seat)
    return {name: counted.get(name, 0) for name in game.figure_names}


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's record replayed: for each step, the action, every event and
    the table with all hands revealed (step 0 is the first deal).

    The spectator's view plus what each seat alone saw (the game's
    :attr:`~taverna.games.base.State.private_fields`): ``hands`` (each seat's
    ``hand``) and, for any other private field ``f``, ``f_by`` (one per seat): what a
    replay shows once the game is over and nothing is secret. A step after which
    signals were made (Mus señas) lists them, whole, in ``signals``.
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

    signals = rec.signals
    done = 0

    def signals_at(i: int) -> list[dict[str, Any]]:
        # the signals made after action i - 1 (all shown: the game is over)
        nonlocal done
        out = []
        while done < len(signals) and signals[done]["after"] == i:
            out.append(state.replay_signal(signals[done]))
            done += 1
        return out

    steps = [step(None, state.initial_events)]
    for i, action in enumerate(rec.actions):
        made = signals_at(i)
        if made:
            steps[-1]["signals"] = made
        steps.append(step(action, state.apply(action)))
    made = signals_at(len(rec.actions))
    if made:
        steps[-1]["signals"] = made
    # JSON keys of private parts are strings; a round trip makes the answer plain JSON
    plain: list[dict[str, Any]] = json.loads(json.dumps(steps))
    return plain
