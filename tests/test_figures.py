"""Each game's own figures (issue 18, Statistics), counted from hand-made records.

The records are written from the rule text (docs/rules.md §1, §2, §3): the sets and decks are
spelled out here from the rules' notation, not taken from the engines, and each
expected count follows from the rules alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taverna.games import GAMES, MalformedRecord, get_game
from taverna.games.record import figures, parse_record, replay

#: docs/rules.md §1.1: the double-six set, ``a-b`` with pips 0..6
TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
#: docs/rules.md §2.1: 52 French cards, rank + suit
CARDS = [r + s for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "SHDC"]
#: docs/rules.md §3.1: the 40-card Spanish deck, rank + suit
SPANISH = [f"{r}{s}" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for s in "oceb"]


def rest(whole: list[str], *hands: list[str]) -> list[str]:
    """The set less the hands dealt: the boneyard, stock or deck, in the set's order."""
    dealt = {x for h in hands for x in h}
    return [x for x in whole if x not in dealt]


def legal(record: dict[str, Any]) -> dict[str, Any]:
    """The record, once its every action has been replayed as legal."""
    outcome = replay(parse_record(record))
    assert outcome.ok, outcome.error
    return record


def test_the_declared_names_are_what_figures_answer() -> None:
    examples = Path(__file__).resolve().parent.parent / "taverna" / "examples"
    for name, example in [
        ("muggins-dominoes", "dominoes-2p"),
        ("muggins-cards", "cards-2p"),
        ("mus", "mus-4p"),
    ]:
        cls = get_game(name)
        record = json.loads((examples / f"{example}.json").read_text())
        assert cls.figure_names, name
        assert cls.facts()["figures"] == list(cls.figure_names)
        for seat in range(record["seats"]):
            counted = figures(record, seat)
            assert list(counted) == list(cls.figure_names)
            assert all(isinstance(v, int) and v >= 0 for v in counted.values())


def test_a_malformed_record_is_refused() -> None:
    examples = Path(__file__).resolve().parent.parent / "taverna" / "examples"
    record = json.loads((examples / "cards-2p.json").read_text())
    with pytest.raises(MalformedRecord, match="unknown game 'chess'"):
        figures({**record, "game": "chess"}, 0)
    with pytest.raises(MalformedRecord, match="deals must be a non-empty list"):
        figures({**record, "deals": []}, 0)


def cards_record(actions: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    # docs/rules.md §2.3: dealer 0, so seat 1 leads
    hands = [["5S", "10H", "KD", "2C", "3C"], ["10S", "4H", "7H", "8H", "9H"]]
    deal = {"hands": hands, "stock": rest(CARDS, *hands), "dealer": 0}
    return {
        "game": "muggins-cards",
        "seats": 2,
        "settings": settings,
        "deals": [deal],
        "actions": actions,
    }


def test_a_muggins_call_by_seat_1_on_seat_0() -> None:
    record = cards_record(
        [
            {"seat": 1, "type": "play", "card": "10S"},  # 10
            # 10 + 5 = 15 scores 15 (docs/rules.md §2.6), and seat 0 does not claim
            {"seat": 0, "type": "play", "card": "5S"},
            # docs/rules.md §2.7: an opponent calls Muggins! and takes them
            {"seat": 1, "type": "muggins"},
            {"seat": 1, "type": "play", "card": "4H"},  # 19
        ]
    )
    legal(record)
    assert figures(record, 1) == {"muggins_made": 1, "muggins_suffered": 0}
    assert figures(record, 0) == {"muggins_made": 0, "muggins_suffered": 1}


def test_a_claimed_score_is_no_muggins() -> None:
    record = cards_record(
        [
            {"seat": 1, "type": "play", "card": "10S"},
            {"seat": 0, "type": "play", "card": "5S", "claim": True},
            {"seat": 1, "type": "play", "card": "4H"},
        ]
    )
    legal(record)
    for seat in (0, 1):
        assert figures(record, seat) == {"muggins_made": 0, "muggins_suffered": 0}


def test_a_call_after_the_window_closed_counts_nothing() -> None:
    # the replay stops at the illegal call: the figures are those of the game before it
    record = cards_record(
        [
            {"seat": 1, "type": "play", "card": "10S"},
            {"seat": 0, "type": "play", "card": "5S"},
            {"seat": 1, "type": "play", "card": "4H"},  # closes the window: 15 lost
            {"seat": 1, "type": "muggins"},
        ]
    )
    assert figures(record, 1) == {"muggins_made": 0, "muggins_suffered": 0}


def test_dominoes_count_the_credited_placements() -> None:
    hands = [
        ["0-5", "6-6", "5-6", "4-6", "3-6", "2-6", "1-6"],
        ["5-5", "0-1", "4-4", "3-3", "2-2", "1-1", "0-0"],
    ]
    record = {
        "game": "muggins-dominoes",
        "seats": 2,
        "deals": [{"hands": hands, "boneyard": rest(TILES, *hands), "opener": 1}],
        "actions": [
            # docs/rules.md §1.5: 5-5 alone counts 10, credited
            {"seat": 1, "type": "play", "tile": "5-5"},
            # the double at the left end counts 10, the new right end 0: 10, credited
            {"seat": 0, "type": "play", "tile": "5-0", "end": "right"},
            # 10 + 1 = 11: nothing
            {"seat": 1, "type": "play", "tile": "0-1", "end": "right"},
        ],
    }
    legal(record)
    assert figures(record, 0) == {"dominoes": 0, "scoring_plays": 1}
    assert figures(record, 1) == {"dominoes": 0, "scoring_plays": 1}


#: docs/rules.md §3.1, §3.5: seat 0 holds three kings and an ace (3 counts as a king): the best
#: Grande, medias of kings, juego of 31; seat 1 a pair of caballos and 29; seat 2 a pair
#: of aces (2 counts as an ace) and 11; seat 3 medias of sietes and 31
MUS_HANDS = [
    ["12o", "12c", "3e", "1b"],
    ["11o", "11c", "5e", "4b"],
    ["2o", "1c", "4e", "5b"],
    ["10o", "7c", "7e", "7o"],
]


def mus_record(actions: list[dict[str, Any]]) -> dict[str, Any]:
    deal = {"hands": MUS_HANDS, "deck": rest(SPANISH, *MUS_HANDS), "mano": 0}
    return {
        "game": "mus",
        "seats": 4,
        # one game is the match: an órdago won ends it
        "settings": {"cows": 1, "games_per_cow": 1},
        "deals": [deal],
        "actions": actions,
    }


def test_an_ordago_in_grande_accepted_and_won() -> None:
    Mus = get_game("mus")
    record = mus_record(
        [
            {"seat": 0, "type": "no_mus"},
            {"seat": 0, "type": "ordago"},  # Grande: mano calls órdago
            # docs/rules.md §3.6.4: the pair winning Grande wins the game
            {"seat": 1, "type": "accept"},
        ]
    )
    legal(record)
    none = dict.fromkeys(Mus.figure_names, 0)
    assert figures(record, 0) == {**none, "grande": 1, "ordagos_called": 1, "ordagos_won": 1}
    assert figures(record, 2) == {**none, "grande": 1}  # the partner's pair won it
    assert figures(record, 1) == none
    assert figures(record, 3) == none


def test_an_ordago_refused_and_the_lances_of_a_showdown() -> None:
    Mus = get_game("mus")
    record = mus_record(
        [
            {"seat": 0, "type": "no_mus"},
            *({"seat": s, "type": "pass"} for s in range(4)),  # Grande in pass
            {"seat": 0, "type": "pass"},
            {"seat": 1, "type": "ordago"},  # Chica
            # docs/rules.md §3.6.3: both answerers say no quiero; pair 1 takes 1 stone
            {"seat": 2, "type": "reject"},
            {"seat": 0, "type": "reject"},
            *({"seat": s, "type": "pass"} for s in range(4)),  # Pares: all hold pares
            {"seat": 0, "type": "pass"},  # Juego: seats 0 and 3 hold juego
            {"seat": 3, "type": "pass"},
        ]
    )
    legal(record)
    # the showdown: Grande to seat 0 (kings); Pares to seat 0 (medias of kings beat
    # medias of sietes); Juego to seat 0 (31 against 31, closer to mano)
    none = dict.fromkeys(Mus.figure_names, 0)
    assert figures(record, 0) == {**none, "grande": 1, "pares": 1, "juego": 1}
    assert figures(record, 2) == {**none, "grande": 1, "pares": 1, "juego": 1}
    assert figures(record, 1) == {**none, "chica": 1, "ordagos_called": 1, "ordagos_won": 1}
    assert figures(record, 3) == {**none, "chica": 1}


def test_a_game_without_figures_answers_none() -> None:
    # the base's default, as a plug-in game that declares none has it
    from taverna.games.base import State

    assert State.figure_names == ()
    assert State.count_figures([], 0) == {}
    assert all(cls.figure_names for cls in GAMES.values() if cls.__module__.startswith("taverna"))
