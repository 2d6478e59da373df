"""Issue 30, item 2, Mus: the top level prices its bets by the hands that would answer
them (the other pair answers on its own cards in its playouts), not by greedy's folds."""

from __future__ import annotations

import pytest

from taverna.bots import make_bot
from taverna.bots.base import UnknownBot
from taverna.bots.styles.odds import lance_odds
from taverna.games.mus import GRANDE, Mus
from taverna.games.mus.hands import parse_hand
from taverna.versus import opponent, style_names

from .mus_helpers import deal, play, start

#: seat 0 (mano) holds king, caballo, sota, 7: a good Grande, not a sure one; the other
#: hands are never seen by the bot (its view has its own cards only)
HANDS = ["12o 11c 10e 7b", "4o 5o 6o 7e", "4c 5c 6c 7c", "1c 1e 5e 6e"]


def _opening(level: int, seed: int) -> str:
    """What ``level`` opens Grande with at 35 to 35, mano, once the mus is cut."""
    s = start(deal(HANDS))
    s.stones = [35, 35]
    play(s, "0 no_mus")
    action = make_bot(level, Mus, 0, seed=seed).choose(s.view(0))
    assert action is not None
    return action.type


def test_the_hand_wins_most_deals_but_not_against_those_that_accept() -> None:
    # docs/rules.md §3.5.1: as mano, king, caballo, sota, 7 loses Grande only to a hand of the
    # other pair with two kings or more, or king, caballo and better cards behind, that
    # its partner does not beat; over every deal it wins about 69 % ...
    hand = parse_hand(HANDS[0])
    every = lance_odds(hand, (), seat=0, mano=0, lance=GRANDE)
    assert 0.65 < every < 0.72
    # ... but against an opponent holding two kings (who takes an órdago at 35 to 35 on
    # the odds) only when its partner beats that opponent: 5 %
    for holder in (1, 3):
        two_kings = lance_odds(
            hand, (), seat=0, mano=0, lance=GRANDE, told={holder: frozenset({"dos_reyes"})}
        )
        assert two_kings < 0.06


@pytest.mark.parametrize("seed", [0, 1])
def test_the_top_level_does_not_open_with_an_ordago_the_accepting_hands_win(seed: int) -> None:
    # level 7 (today's expert) calls órdago: its playouts answer with greedy's policy,
    # which reads an órdago as a 95 % hand and folds nearly always, so the órdago looks
    # like a free stone; level 8's other pair answers on its own cards, and the hands
    # that accept beat it
    assert _opening(7, seed) == "ordago"
    assert _opening(8, seed) != "ordago"


def test_versus_takes_a_level_as_opponent() -> None:
    assert style_names(Mus, "careful,7,expert") == ["careful", "7", "expert"]
    assert [opponent(Mus, x) for x in ("careful", "7", "greedy")] == [
        "style:careful",
        "7",
        "greedy",
    ]
    with pytest.raises(ValueError, match="no style 'tight'"):
        style_names(Mus, "tight")
    with pytest.raises(UnknownBot, match="the levels are 1 to 8"):
        style_names(Mus, "9")
