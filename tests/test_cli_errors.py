"""Bad input to `taverna bench`, `simulate`, `play` and `replay`: one clear line on
stderr, no traceback, a non-zero exit status, nothing run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from taverna.bots import BotOptionError, make_bot
from taverna.cli import main
from taverna.games import IllegalAction, get_game

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "taverna" / "examples").glob("*.json"))


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command, which must refuse with status 2; its one line of stderr."""
    try:
        status = main(argv)
    except SystemExit as e:  # argparse's own refusals
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    assert status == 2, (status, out, err)
    assert out == ""
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


# ------------------------------------------------------------- bench


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (
            ["bench", "dominoes", "--seats", "9"],
            "muggins-dominoes is played by 2 to 4 seats, not 9",
        ),
        (["bench", "mus", "--seats", "2"], "mus is played by exactly 4 seats, not 2"),
        (["bench", "dominoes", "--seats", "abc"], "'abc' is not a number"),
        (["bench", "cards", "--seats", "2,,3"], "'' is not a number"),
    ],
)
def test_bench_refuses_seat_counts_the_game_does_not_allow(argv, why, capsys) -> None:
    line = refused(argv, capsys)
    assert line.startswith("taverna bench: --seats: ") and why in line


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["bench", "dominoes", "--seconds", "0"], "--seconds: must be more than 0, not 0"),
        (["bench", "dominoes", "--seconds", "-1"], "--seconds: must be more than 0, not -1"),
        (["bench", "dominoes", "--seconds", "nan"], "--seconds: 'nan' is not a finite number"),
        (["bench", "server", "--tables", "0"], "--tables: must be at least 1, not 0"),
        (["bench", "server", "--connections", "-1"], "--connections: must be 0 or more, not -1"),
        (["bench", "server", "--think", "-2"], "--think: must be 0 or more, not -2"),
    ],
)
def test_bench_refuses_nonsense_numbers(argv, why, capsys) -> None:
    assert why in refused(argv, capsys)


def test_the_server_bench_says_why_its_server_did_not_start(capsys) -> None:
    """It used to wait 30 s and end in a traceback ("the server did not start")."""
    assert main(["bench", "server", "--database", "bogus://x", "--tables", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "taverna bench: the server did not start: taverna serve: database bogus://x: "
        "unsupported database 'bogus': use sqlite:// or postgresql://\n"
    )


# ---------------------------------------------------------- simulate

SIM = ["simulate", "cards", "--bots", "greedy,random", "--no-progress", "--jobs", "1"]


@pytest.mark.parametrize(
    ("extra", "why"),
    [
        (["--games", "0"], "--games: must be at least 1, not 0"),
        (["--games", "-3"], "--games: must be at least 1, not -3"),
        (["--max-hands", "0"], "--max-hands: must be at least 1, not 0"),
        (["--jobs", "0"], "--jobs: must be at least 1, not 0"),
        (["--games", "ten"], "--games: 'ten' is not a whole number"),
        (["--option", "forget=2"], "greedy bot: forget must be a number from 0 to 1, not 2"),
        (["--option", "nothing"], "--option take KEY=VALUE, not 'nothing'"),
    ],
)
def test_simulate_refuses_nonsense_values(extra, why, capsys) -> None:
    assert why in refused([*SIM, *extra], capsys)


@pytest.mark.parametrize(
    ("option", "why"),
    [
        (
            "iterations=abc",
            "expert bot: iterations must be a whole number of at least 1, not 'abc'",
        ),
        ("iterations=-5", "expert bot: iterations must be a whole number of at least 1, not -5"),
        ("iterations=2.5", "not 2.5"),
        ("seconds=0", "expert bot: seconds must be a number greater than 0, not 0"),
        ("paired=yes", "expert bot: paired must be true or false, not 'yes'"),
    ],
)
def test_simulate_checks_bot_options_before_it_plays(option, why, capsys) -> None:
    line = refused(["simulate", "cards", "--bots", "expert,greedy", "--option", option], capsys)
    assert line == f"taverna simulate: {why}" or why in line


def test_a_bad_bot_option_never_reaches_the_worker_processes() -> None:
    """The newcomer's case: the error used to come from inside multiprocessing."""
    argv = ["simulate", "cards", "--bots", "expert,greedy", "--option", "iterations=abc"]
    proc = subprocess.run(
        [sys.executable, "-m", "taverna", *argv, "--games", "4", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "taverna simulate: expert bot: iterations must be a whole number of at least 1, not 'abc'"
    ]


def test_bot_options_are_checked_when_a_bot_is_made() -> None:
    Cards, Mus = get_game("cards"), get_game("mus")
    assert make_bot("expert", Cards, 0, iterations="500").iterations == 500  # text from a CLI
    with pytest.raises(BotOptionError, match="forget must be a number from 0 to 1"):
        make_bot("random", Cards, 0, forget=1.5)
    with pytest.raises(BotOptionError, match="expert bot: margin must be a number of at least 0"):
        make_bot("expert", Cards, 0, margin=-1)
    with pytest.raises(BotOptionError, match="expert bot: settle must be a number of at least 0"):
        make_bot("expert", Cards, 0, settle=-1)
    with pytest.raises(BotOptionError, match="greedy bot: bet must be a number, not 'x'"):
        make_bot("greedy", Mus, 0, bet="x")  # one of the Mus policy's thresholds


def test_simulate_prints_every_figure_in_full_when_piped(monkeypatch, capsys) -> None:
    """Redirected to a file, rich used to fit the table in 80 columns ("80.1%–9…")."""
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main([*SIM, "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    rows = [line for line in out.splitlines() if re.search(r"(greedy|random) ", line)]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.split("│")[1:-1]]
        assert len(cells) == 9, row
        assert re.fullmatch(r"\d+\.\d%–\d+\.\d%", cells[3]), cells
        # wall-clock, processor time per decision, and the slowest
        assert all(c.endswith(" ms") for c in cells[5:8]), cells


def test_bench_prints_every_column_in_full_when_piped(monkeypatch, capsys) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["bench", "cards", "--seats", "2", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    for column in ("step rounds/s", "apply rounds/s", "minimal loop rounds/s"):
        assert column in out
    assert "cost, step" in out and "cost, apply" in out and "state bytes" in out
    row = next(line for line in out.splitlines() if re.match(r"│\s+2 │", line))
    assert len(row.split("│")) == 10 and row.rstrip().endswith("│")


# -------------------------------------------------------------- play


def test_play_refuses_more_bots_than_other_seats(capsys) -> None:
    line = refused(["play", "cards", "--bots", "expert,greedy"], capsys)
    assert line == (
        "taverna play: --bots expert,greedy names 2 bots, but a 2-seat game has 1 other seat "
        "(give one level per other seat, or one for all)"
    )
    assert "3 other seats" in refused(["play", "mus", "--bots", "a,b,c,d"], capsys)
    assert "empty level" in refused(["play", "cards", "--bots", "greedy,"], capsys)


# ------------------------------------------------------------ replay


def test_replay_of_a_missing_file_names_it_once_with_the_reason(capsys) -> None:
    assert main(["replay", "nonexist.json"]) == 2
    _, err = capsys.readouterr()
    assert err == "taverna replay: cannot read nonexist.json: No such file or directory\n"


def test_replay_of_a_golden_file_says_how_to_replay_its_record(capsys) -> None:
    """Golden files are a record plus expectations (tests/records/README.md): refused as
    records, with the way to replay the record inside."""
    golden = ROOT / "tests" / "records" / "mus" / "full-match.json"
    assert main(["replay", str(golden)]) == 2
    out, err = capsys.readouterr()
    assert "unknown record field 'expect'" in json.loads(out)["malformed"]
    assert "golden test file" in err and "jq .record FILE | taverna replay -" in err
    # and the one-liner works
    inner = json.dumps(json.loads(golden.read_text())["record"])
    proc = subprocess.run(
        [sys.executable, "-m", "taverna", "replay", "-"],
        input=inner,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["ok"] is True


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_bundled_example_replays(path: Path, capsys) -> None:
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_there_is_a_whole_mus_example(capsys) -> None:
    assert {p.stem for p in EXAMPLES} >= {"dominoes-2p", "cards-2p", "mus-4p"}
    assert main(["replay", str(ROOT / "taverna" / "examples" / "mus-4p.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["over"] is True and result["winner"] == 0
    assert result["games"] == [1, 0] and result["cows"] == [1, 0]
    record = json.loads((ROOT / "taverna" / "examples" / "mus-4p.json").read_text())
    kinds = {a["type"] for a in record["actions"]}
    assert kinds == {
        "mus",
        "no_mus",
        "discard",
        "pass",
        "bet",
        "raise",
        "ordago",
        "accept",
        "reject",
    }


# ---------------------------------------------------------- the library


@pytest.mark.parametrize(
    ("game", "obj"),
    [
        ("dominoes", {"type": "play", "tile": "6-6"}),
        ("cards", {"type": "go"}),
        ("mus", {"type": "mus"}),
    ],
)
def test_apply_of_a_plain_dict_points_to_parse_action(game: str, obj: dict) -> None:
    cls = get_game(game)
    state = cls.new(cls.min_seats, seed=1)
    with pytest.raises(IllegalAction) as e:
        state.apply(obj)  # type: ignore[arg-type]
    assert f"{obj!r} is not a {cls.game} action" in str(e.value)
    assert f"{cls.__name__}.parse_action(obj, seats)" in str(e.value)
    assert "legal_actions()" in str(e.value)
