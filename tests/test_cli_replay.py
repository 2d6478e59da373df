"""`taverna replay`: fields, exit statuses, stdin and JSON Lines (docs/rules.md §4.4)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from taverna.cli import main

GOLDEN = Path(__file__).parent / "records" / "muggins-dominoes"
EXAMPLE = Path(__file__).parent.parent / "taverna" / "examples" / "dominoes-2p.json"


def record_of(name: str) -> str:
    return json.dumps(json.loads((GOLDEN / f"{name}.json").read_text())["record"])


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict], str]:
    status = main(["replay", *args])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_replay_ok_prints_exactly_the_fields_of_rules_4(tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(record_of("domino-and-next-opener"))
    status, lines, _ = run([str(path)], capsys)
    assert status == 0 and len(lines) == 1
    assert set(lines[0]) == {"ok", "scores", "over", "winner", "to_act", "events"}
    assert lines[0]["ok"] is True and lines[0]["scores"] == [50, 0]


def test_replay_illegal_action_exits_1_with_index_and_state_before(tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(record_of("drawn-tile-must-be-placed"))
    status, lines, _ = run([str(path)], capsys)
    assert status == 1
    result = lines[0]
    assert result["ok"] is False
    assert result["error"]["index"] == 5
    assert "must place the drawn tile" in result["error"]["message"]
    assert result["scores"] == [0, 0, 10] and result["to_act"] == [2]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not JSON"),
        ('{"game": "chess", "seats": 2, "deals": [], "actions": []}', "unknown game"),
        ('{"game": "muggins-dominoes", "seats": 2, "deals": [], "actions": []}', "deals"),
        ('{"game": "muggins-dominoes", "seats": 9, "deals": [{}], "actions": []}', "seats"),
    ],
)
def test_replay_malformed_exits_2_with_a_clear_message(tmp_path, capsys, text, why) -> None:
    path = tmp_path / "m.json"
    path.write_text(text)
    status, lines, err = run([str(path)], capsys)
    assert status == 2
    assert lines == [{"ok": False, "malformed": lines[0]["malformed"]}]
    assert why in lines[0]["malformed"] and why in err


def test_replay_unknown_action_is_malformed(tmp_path, capsys) -> None:
    record = json.loads(record_of("three-players-forced-draw"))
    record["actions"].append({"seat": 0, "type": "fly"})
    path = tmp_path / "m.json"
    path.write_text(json.dumps(record))
    status, lines, _ = run([str(path)], capsys)
    assert status == 2 and "action 6" in lines[0]["malformed"]


def test_several_files_give_json_lines_in_order_and_the_highest_status(tmp_path, capsys) -> None:
    names = ["domino-and-next-opener", "drawn-tile-must-be-placed", "malformed-unknown-tile"]
    paths = []
    for n in names:
        p = tmp_path / f"{n}.json"
        p.write_text(record_of(n))
        paths.append(str(p))
    status, lines, _ = run([*paths, str(tmp_path / "missing.json")], capsys)
    assert status == 2
    assert [line["ok"] for line in lines] == [True, False, False, False]
    assert "error" in lines[1]
    assert set(lines[2]) == {"ok", "malformed"}
    assert "cannot read" in lines[3]["malformed"]


def test_replay_reads_stdin(monkeypatch, capsys) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(record_of("blocked-hand").encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, lines, _ = run(["-"], capsys)
    assert status == 0 and lines[0]["scores"] == [0, -115]


def test_the_installed_command_replays_the_bundled_example() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taverna", "replay", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] and result["over"] and result["winner"] is not None
