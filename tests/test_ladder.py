"""The levels' ratings (issue 30, item 5): the fit worked by hand, the ratings file
written and read back, the nearest level, and `taverna ladder` on a tiny run."""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taverna import glicko2, ladder
from taverna.bots import ratings
from taverna.server import matchmaking


def test_two_entries_fit_by_hand() -> None:
    # b beat a in 3 of 4 games; with the drawn game every pair counts, 3.5 of 5:
    # E = 0.7, so μ_b − μ_a = ln(0.7/0.3) = 0.847298, 147.19 points on the scale of
    # 173.7178; the information 5 · 0.7 · 0.3 = 1.05, RD = 173.7178 / √1.05 = 169.53
    found = glicko2.fit(["a", "b"], [("a", "b", 1.0, 4)], anchor="a")
    assert found.ratings["a"].r == 1500.0 and found.ratings["a"].rd == 0.0
    assert found.ratings["b"].r == pytest.approx(1647.19, abs=0.01)
    assert found.ratings["b"].rd == pytest.approx(169.53, abs=0.01)
    # the anchor's rating is where it is held: the same results, b held at 1500
    other = glicko2.fit(["a", "b"], [("a", "b", 1.0, 4)], anchor="b", at=1500)
    assert other.ratings["a"].r == pytest.approx(1500 - 147.19, abs=0.01)


def test_a_chain_adds_up_and_a_closed_loop_is_fitted_at_once() -> None:
    # a chain a–b–c, each step 3 of 4: each difference is fitted alone (a tree), so c is
    # two steps above a, and the variances add: RD_c = √2 · 169.53
    chain = glicko2.fit(["a", "b", "c"], [("b", "a", 3.0, 4), ("c", "b", 3.0, 4)], anchor="a")
    assert chain.ratings["c"].r - 1500 == pytest.approx(2 * 147.19, abs=0.02)
    assert chain.ratings["c"].rd == pytest.approx(math.sqrt(2) * 169.53, abs=0.02)
    diff, rd = chain.difference("c", "b")
    assert diff == pytest.approx(147.19, abs=0.01) and rd == pytest.approx(169.53, abs=0.01)
    # close the loop, c level with a over many games: c comes down near a, b between
    # them (it beat a, and lost to c), and every deviation shrinks
    loop = glicko2.fit(
        ["a", "b", "c"],
        [("b", "a", 3.0, 4), ("c", "b", 3.0, 4), ("c", "a", 50.0, 100)],
        anchor="a",
    )
    r = {k: v.r for k, v in loop.ratings.items()}
    assert r["a"] < r["b"] < r["c"] < 1530
    assert loop.ratings["c"].rd < chain.ratings["c"].rd / 2

    # the fitted ratings are where the likelihood is highest: an entry's expected scores
    # add up to its score (with the drawn game of each pair): b 3.5 + 1.5, c 3.5 + 50.5
    def e(x: str, y: str) -> float:
        return 1 / (1 + math.exp(-(r[x] - r[y]) / glicko2.SCALE))

    assert 5 * e("b", "a") + 5 * e("b", "c") == pytest.approx(5.0)
    assert 5 * e("c", "b") + 101 * e("c", "a") == pytest.approx(54.0)


def test_all_won_stays_finite_and_unlinked_entries_are_refused() -> None:
    found = glicko2.fit(["a", "b"], [("b", "a", 10.0, 10)], anchor="a")
    # 10.5 of 11: ln(21) = 3.0445 on the Glicko-2 scale
    assert found.ratings["b"].r == pytest.approx(1500 + glicko2.SCALE * math.log(21), abs=0.01)
    with pytest.raises(ValueError, match="no chain of games links c"):
        glicko2.fit(["a", "b", "c"], [("b", "a", 1.0, 2)], anchor="a")


def test_the_schedule_plays_near_levels_most() -> None:
    matches = ladder.schedule([1, 2, 3, 4, 5, 6, 7, 8], ["careful"], 18)
    games = {(a, b): n for a, b, n in matches}
    assert games[("2", "1")] == games[("8", "7")] == 18
    assert games[("3", "1")] == games[("8", "6")] == 10  # half: 9, in whole pairs 10
    assert ("4", "1") not in games  # three apart: not played
    # a style meets the beginner, greedy and the expert
    assert [(a, n) for a, b, n in matches if b == "style:careful"] == [
        ("1", 10),
        ("4", 10),
        ("7", 10),
    ]
    assert len(matches) == 7 + 6 + 3
    assert all(n % 2 == 0 for n in games.values())  # mirrored deals: whole pairs
    # a ladder without those levels: the style meets its lowest level
    assert ladder.schedule([5, 6], ["careful"], 2) == [("6", "5", 2), ("5", "style:careful", 2)]
    assert ladder.parse_levels("1-3,7") == [1, 2, 3, 7]
    with pytest.raises(ValueError, match="no level 9"):
        ladder.parse_levels("7-9")


def test_the_ratings_file_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ratings.json"
    mus = {"levels": {"4": {"rating": 1500.0, "rd": 0.0}, "5": {"rating": 1660.0, "rd": 40.0}}}
    dominoes = {"levels": {"1": {"rating": 1100.0, "rd": 50.0}, "4": {"rating": 1500, "rd": 0}}}
    ratings.save("mus", mus, path)
    ratings.save("muggins-dominoes", dominoes, path)
    assert ratings.load(path) == {"mus": mus, "muggins-dominoes": dominoes}
    ratings.save("mus", {**mus, "seconds": 3.0}, path)  # a game's part replaced, the rest kept
    assert ratings.load(path)["mus"]["seconds"] == 3.0
    assert ratings.load(path)["muggins-dominoes"] == dominoes
    assert ratings.load(tmp_path / "none.json") == {}

    # the club reads it: the nearest level, the lower of two as near
    monkeypatch.setattr(ratings, "PATH", path)
    ratings.club_ratings.cache_clear()
    try:
        assert ratings.level_ratings("mus") == {4: (1500.0, 0.0), 5: (1660.0, 40.0)}
        assert ratings.nearest_level("mus", 1570) == 4
        assert ratings.nearest_level("mus", 1590) == 5
        assert ratings.nearest_level("mus", 1580) == 4
        assert ratings.nearest_level("mus", 2400) == 5
        assert ratings.nearest_level("muggins-cards", 1500) is None
    finally:
        ratings.club_ratings.cache_clear()


class _Accounts:
    def __init__(self, skills: dict[str, Any]) -> None:
        self.found = skills

    async def skills(self, player_id: str) -> dict[str, Any]:
        return self.found


class _Hub:
    def __init__(self, skills: dict[str, Any]) -> None:
        self.accounts = _Accounts(skills)


def test_play_now_gives_the_level_nearest_the_players_rating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ratings.json"
    levels = {str(n): {"rating": 1500.0 + 150 * (n - 4), "rd": 30.0} for n in range(1, 9)}
    ratings.save("mus", {"levels": levels}, path)
    monkeypatch.setattr(ratings, "PATH", path)
    ratings.club_ratings.cache_clear()
    member = {"id": "p1", "registered": True}
    guest = {"id": "g1", "registered": False}
    strong = _Hub({"mus": {"rating": 1840.0}})

    def level(hub: Any, player: dict[str, Any], game: str) -> int:
        return asyncio.run(matchmaking.level_for(hub, player, game))

    try:
        assert level(strong, member, "mus") == 6  # 1840: 1800 (6) nearer than 1950 (7)
        assert level(_Hub({"mus": {"rating": 1180.0}}), member, "mus") == 2  # 1200
        assert level(_Hub({}), member, "mus") == 4  # not rated yet: 1500
        assert level(strong, guest, "mus") == 4  # a guest has no rating: 1500
        assert level(strong, member, "muggins-cards") == 4  # not measured: the default
    finally:
        ratings.club_ratings.cache_clear()


#: a tiny ladder: the cheap levels, one style, a few games
LADDER = [
    *[sys.executable, "-m", "taverna", "ladder", "dominoes", "--levels", "1-4"],
    *["--styles", "aggressive", "--games", "4", "--seed", "3"],
]


def test_the_ladder_command_on_a_tiny_run(tmp_path: Path) -> None:
    out = tmp_path / "ratings.json"
    ratings.save("mus", {"levels": {"4": {"rating": 1500.0, "rd": 0.0}}}, out)  # kept
    done = subprocess.run(
        [*LADDER, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())["games"]
    assert found["mus"] == {"levels": {"4": {"rating": 1500.0, "rd": 0.0}}}
    measured = found["muggins-dominoes"]
    assert set(measured["levels"]) == {"1", "2", "3", "4"} and set(measured["styles"]) == {
        "aggressive"
    }
    assert measured["levels"]["4"] == {"rating": 1500.0, "rd": 0.0}  # the anchor
    assert all(v["rd"] > 0 for k, v in measured["levels"].items() if k != "4")
    assert measured["command"] == (
        "taverna ladder muggins-dominoes --levels 1-4 --styles aggressive --games 4 --seed 3"
    )
    # every match the schedule names, with its games, and the fit's adjacent differences
    assert [(r["a"], r["b"], r["games"]) for r in measured["results"]] == ladder.schedule(
        [1, 2, 3, 4], ["aggressive"], 4
    )
    assert all(0 <= r["score"] <= r["games"] for r in measured["results"])
    assert [g["levels"] for g in measured["adjacent"]] == [[1, 2], [2, 3], [3, 4]]
    # the same run again: the same deals, the same games, the same ratings
    again = tmp_path / "again.json"
    subprocess.run(
        [*LADDER, "--out", str(again)],
        capture_output=True,
        timeout=120,
        check=True,
    )
    repeated = json.loads(again.read_text())["games"]["muggins-dominoes"]
    assert repeated["levels"] == measured["levels"]
    # what it printed: each rating with its interval, progress on stderr
    assert "level 4 − level 3" in done.stdout and "± 2 RD" in done.stdout
    assert "[1/" in done.stderr and f"ratings written to {out}" in done.stderr


def test_the_ladder_refuses_a_mistake_in_one_line(tmp_path: Path) -> None:
    for args, says in (
        (["dominoes", "--levels", "0-3"], "no level 0"),
        (["dominoes", "--styles", "careful"], "no style 'careful'"),
        (["chess"], "chess"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "taverna", "ladder", *args, "--out", str(tmp_path / "x")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and says in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()
