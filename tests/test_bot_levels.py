"""Issue 30, item 4: levels 1 to 8 in every game, named by number, the old names aliases."""

from __future__ import annotations

import random
from typing import Any

import pytest

from taverna.bots import LEVELS, TOP, bot_class, level_of, make_bot
from taverna.bots import dominoes as dominoes_bots
from taverna.bots.base import UnknownBot
from taverna.bots.dominoes import BEGINNER_SEES
from taverna.bots.expert import ExpertBot
from taverna.bots.levels import options_for
from taverna.bots.match import play_game
from taverna.bots.simple import BeginnerBot, GreedyBot
from taverna.games import GAMES, get_game
from taverna.games.cards import card_id
from taverna.games.dominoes import LEFT, RIGHT, DominoAction
from taverna.series import wilson

#: short games, so that the strongest levels play whole ones in a few seconds
SHORT: dict[str, dict[str, Any]] = {
    "muggins-dominoes": {"target": 61},
    "muggins-cards": {"target": 61},
    "mus": {"cows": 1, "games_per_cow": 1},
}


def test_levels_are_numbered_and_the_old_names_are_aliases() -> None:
    assert LEVELS == ("1", "2", "3", "4", "5", "6", "7", "8") and TOP == 8
    assert [level_of(x) for x in ("random", "greedy", "expert", 5, "5", " 8 ")] == [
        1,
        4,
        7,
        5,
        5,
        8,
    ]
    Dominoes = get_game("dominoes")
    for name, number, cls in (("random", 1, BeginnerBot), ("greedy", 4, GreedyBot)):
        bot = make_bot(name, Dominoes, 0)
        assert bot.level == number and type(bot) is cls and bot.label == str(number)
    expert = make_bot("expert", Dominoes, 1)
    assert isinstance(expert, ExpertBot) and expert.level == 7
    # expert plays as the expert did: the game's whole budget; 8 twice that
    assert expert.iterations == make_bot("7", Dominoes, 1).iterations == 1200
    assert make_bot(8, Dominoes, 1).iterations == 2400
    assert make_bot(8, get_game("mus"), 1).options["pool"] == 400
    # a bot's own option wins over its level's
    assert make_bot("expert", Dominoes, 1, iterations=50).iterations == 50
    assert bot_class("3") is BeginnerBot and bot_class("expert") is ExpertBot
    for bad in ("0", "9", 0, 9, "-1"):
        with pytest.raises(UnknownBot, match="the levels are 1 to 8"):
            make_bot(bad, Dominoes, 0)
    with pytest.raises(UnknownBot, match="no bot level 'x'"):
        level_of("x")


def test_server_options_by_level_or_alias() -> None:
    table = {"expert": {"seconds": 5, "iterations": 800}, "7": {"iterations": 900}, "8": {"x": 1}}
    assert options_for(table, 7) == {"seconds": 5, "iterations": 900}
    assert options_for(table, 4) == {}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_whole_legal_game(game: str, level: str) -> None:
    """Each level against level 4 to the end of a short game: play_game applies every
    choice through the protocol, so an illegal one would raise."""
    cls = GAMES[game]
    seats = cls.max_seats if cls.team_count else 2
    state = cls.new(seats, SHORT[game], seed=int(level))
    bots = [
        make_bot(level if cls.side_of(s) == 0 else "4", cls, s, seed=s + 10) for s in range(seats)
    ]
    out = play_game(state, bots, seed=3, max_hands=200)
    assert state.over and out.winner is not None
    assert sum(out.capped_decisions) == 0


class Draws(random.Random):
    """A generator whose ``random()`` always gives ``x``: which way a chance goes."""

    def __init__(self, x: float) -> None:
        super().__init__(0)
        self.x = x

    def random(self) -> float:
        return self.x


def test_a_beginner_sheds_its_heaviest_tile_and_mostly_misses_the_score() -> None:
    """Dominoes, ends 6 and 3 (count 9), in hand the 6-5, the 3-4 and the 3-2, worked by
    hand: the 6-5 on the 6 leaves 5 and 3 (8), the 3-4 on the 3 leaves 6 and 4 (10: it
    scores), the 3-2 leaves 6 and 2 (8). A beginner plays its heaviest tile, the 6-5,
    unless it sees the score (a chance of BEGINNER_SEES); greedy scores."""
    Dominoes = get_game("dominoes")
    plays = [
        DominoAction(0, "play", 5, 6, LEFT),
        DominoAction(0, "play", 3, 4, RIGHT),
        DominoAction(0, "play", 3, 2, RIGHT),
    ]
    view = {
        **Dominoes.new(2, seed=1).view(0),
        "ends": [6, 3],
        "doubles_at_ends": [False, False],
        "hand": ["6-5", "3-4", "3-2"],
    }
    bot = make_bot("1", Dominoes, 0)
    bot.rng = Draws(BEGINNER_SEES + 0.01)  # does not see it
    assert dominoes_bots.beginner(bot, view, plays) == plays[0]
    bot.rng = Draws(BEGINNER_SEES - 0.01)  # sees it
    assert dominoes_bots.beginner(bot, view, plays) == plays[1]


def test_a_beginner_counts_by_tens_in_cards() -> None:
    """Total 10, limit 31, in hand a 5, a 10 and a king: the 5 makes 15 (a score a
    beginner does not see: it plays its highest card), the 10 and the king make 20 (seen,
    and claimed). A total of 17 with a 3, an 8 and a 4 in hand: the 3 makes 20 (seen),
    the 8 makes 25 (missed), the 4 makes 21."""
    Cards = get_game("cards")
    state = Cards.new(2, seed=3)
    seat = state.to_act[0]
    bot = make_bot("1", Cards, seat, seed=1, forget=0.0)  # no claim forgotten on top

    def choose(total: int, hand: list[str]) -> Any:
        plays = []
        for c in hand:
            value = min(10, int(c[:-1]) if c[:-1].isdigit() else 10)
            scores = (total + value) % 5 == 0
            plays.append({"seat": seat, "type": "play", "card": c})
            if scores:
                plays.append({"seat": seat, "type": "play", "card": c, "claim": True})
        view = {
            **state.view(seat),
            "total": total,
            "limit": 31,
            "hand": hand,
            "legal": plays,
            "turn": seat,
            "pending": None,
        }
        return bot.choose(view)

    # 10 + K = 20: the highest card scores, and the beginner sees it (a multiple of ten)
    first = choose(10, ["5S", "10H", "KD"])
    assert first.card in (card_id("KD"), card_id("10H")) and first.claim
    # 17: the 3 makes 20, seen and claimed; the 8's 25 is not seen
    second = choose(17, ["3S", "8H", "4D"])
    assert second.card == card_id("3S") and second.claim
    # 10: only the 5 scores (15), unseen: the beginner sheds its highest card, the 9
    third = choose(10, ["5S", "9H", "2D"])
    assert third.card == card_id("9H") and not third.claim


def test_a_beginner_bets_grande_on_two_kings_and_calls_ordagos() -> None:
    """Mus: a beginner opens Grande with a bet holding two kings (a three counts as a
    king) whatever else it holds, passes without them, and accepts an órdago with one
    king."""
    Mus = get_game("mus")
    state = Mus.new(4, seed=2)
    view = state.view(0)

    def choose(hand: list[str], phase: str, ordago: bool = False) -> str:
        bot = make_bot("1", Mus, 0, seed=4)
        if phase == "speak":
            legal = [{"seat": 0, "type": "pass"}, {"seat": 0, "type": "bet", "amount": 2}]
            legal.append({"seat": 0, "type": "ordago"})
        else:
            legal = [{"seat": 0, "type": "accept"}, {"seat": 0, "type": "reject"}]
        v = {
            **view,
            "phase": phase,
            "hand": hand,
            "lance_slot": 0,
            "lance": "grande",
            "punto": False,
            "ordago": ordago,
            "legal": legal,
            "turn": 0,
            "seat": 0,
        }
        action = bot.choose(v)
        assert action is not None
        return action.type

    assert choose(["12o", "3c", "4e", "5b"], "speak") == "bet"  # two kings, the rest low
    assert choose(["12o", "11c", "10e", "7b"], "speak") == "pass"  # one king: no
    assert choose(["12o", "4c", "5e", "6b"], "answer", ordago=True) == "accept"


def _match(a: str, b: str, games: int) -> int:
    """Games of dominoes level ``a`` wins against level ``b``, seats swapped each game."""
    cls = get_game("dominoes")
    won = 0
    for g in range(games):
        state = cls.new(2, {"target": 61}, seed=1000 + g)
        first = g % 2
        bots = [make_bot(a if s == first else b, cls, s, seed=g * 7 + s) for s in range(2)]
        out = play_game(state, bots, seed=g)
        won += out.winner == first
    return won


@pytest.mark.slow
def test_level_5_beats_level_1_in_dominoes() -> None:
    """A small match where the difference is large: the lower end of the 95 % interval
    of level 5's win rate is above one half (docs/bots.md, Levels)."""
    games = 20
    won = _match("5", "1", games)
    assert wilson(won, games)[0] > 0.5, won


def test_beginners_are_reproducible() -> None:
    cls = get_game("mus")
    records = []
    for _ in range(2):
        state = cls.new(4, SHORT["mus"], seed=9)
        bots = [make_bot(str(1 + s % 3), cls, s, seed=s) for s in range(4)]
        play_game(state, bots, seed=9)
        records.append(state.record())
    assert records[0] == records[1]


def test_random_is_level_1_now() -> None:
    rng = random.Random(1)
    assert make_bot("random", get_game("cards"), 0, seed=rng.randrange(9)).options["forget"] == 0.5
