"""Golden records: games worked out by hand from docs/rules.md, replayed by the engine.

Each file in ``tests/records/<game>/`` is ``{"why": ..., "record": {...},
"expect": {...}}``. ``why`` shows the hand computation; ``expect`` lists the
fields of the replay result (docs/rules.md §4.4) that must come out exactly —
``status`` for the exit status, ``error_index`` for an illegal action,
``malformed`` for a substring of the malformed message, ``credits`` for the
list of credits of the play events, in order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taverna.games.record import replay_text

RECORDS = Path(__file__).parent / "records"
FILES = sorted(RECORDS.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_golden_record(path: Path) -> None:
    golden = json.loads(path.read_text())
    assert golden.get("why"), f"{path.name}: a golden record must explain its expected result"
    expect = dict(golden["expect"])
    result, status = replay_text(json.dumps(golden["record"]))
    assert status == expect.pop("status", 0), result
    if "malformed" in expect:
        assert expect.pop("malformed") in result["malformed"]
    if "error_index" in expect:
        assert result["error"]["index"] == expect.pop("error_index"), result["error"]
    if "error_contains" in expect:
        assert expect.pop("error_contains") in result["error"]["message"]
    if "credits" in expect:
        credits = [e.get("credit", 0) for e in result["events"] if e["type"] == "play"]
        assert credits == expect.pop("credits")
    for key, value in expect.items():
        assert result[key] == value, f"{key}: {result[key]!r} != {value!r}"


def test_there_are_golden_records() -> None:
    assert len(FILES) >= 5
