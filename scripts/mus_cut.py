"""How often each Mus level cuts the mus (says no mus), by its place after mano.

Deals seeded hands at 0-0 stones; for each deal and each place k (0: mano, 1 to 3:
the seats after it) the seats before place k say mus and the level's bot at place
k is asked, in the first mus round of the hand. So the rate at place k is the
chance of a no mus *when the seat is asked*; a seat after mano is asked only when
every seat before it said mus, which at a table of bots happens only as often as
those seats ask for it. For reference, it gives the same rates for a player's rule
of thumb (cut with 31, medias or duples, or two kings with a third card of 10 or
more; ask for mus otherwise) on the same hands.

    nice -n 19 .venv/bin/python scripts/mus_cut.py --levels 1,2,3,4 --deals 2000
    nice -n 19 .venv/bin/python scripts/mus_cut.py --levels 7 --deals 200 --option no_mus=0.5

Prints one JSON line per level.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.games.mus import MUS, NO_MUS, MusAction
from taverna.games.mus import Mus as MusState
from taverna.games.mus.hands import CARD_CLASS, hand_value
from taverna.series import parse_sets, wilson

KING = 7


def rule_of_thumb(hand: list[int]) -> bool:
    """A player's no mus: 31, medias or duples, or two kings with a third high card."""
    v = hand_value(hand)
    classes = sorted((CARD_CLASS[c] for c in hand), reverse=True)
    return v.points == 31 or v.pares_kind >= 2 or (classes[1] == KING and classes[2] >= 4)


def asked(state: Any, place: int) -> int:
    """The seat at ``place`` after mano, once the seats before it said mus."""
    for _ in range(place):
        seat = state.turn
        state.apply(next(a for a in state.legal_actions(seat) if a.code == MUS))
    return int(state.turn)


def cuts(level: str, deals: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The level's no mus count at each place over ``deals`` deals, and the rule's."""
    Mus = get_game("mus")
    settings = Mus.check_settings(4, {"games_per_cow": 1})
    made = [0, 0, 0, 0]
    thumb = [0, 0, 0, 0]
    t0 = time.process_time()
    for d in range(deals):
        deal_seed = random.Random(f"{seed}:{d}").randrange(1 << 62)
        for place in range(4):
            state = Mus.new(4, settings, seed=deal_seed)
            assert isinstance(state, MusState)
            seat = asked(state, place)
            bot = make_bot(level, Mus, seat, deal_seed + place, **options)
            action = bot.choose(state.view(seat))
            assert isinstance(action, MusAction)
            made[place] += action.code == NO_MUS
            thumb[place] += rule_of_thumb(list(state.hands[seat]))
    row: dict[str, Any] = {"level": level, "options": options, "deals": deals, "seed": seed}
    row["no_mus"] = [round(x / deals, 4) for x in made]
    row["no_mus_ci95_mano"] = [round(x, 4) for x in wilson(made[0], deals)]
    row["rule_of_thumb"] = [round(x / deals, 4) for x in thumb]
    row["cpu_seconds"] = round(time.process_time() - t0, 1)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,2,3,4,5,6,7,8")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="bot options KEY=VALUE")
    args = parser.parse_args(argv)
    options = parse_sets(args.option)
    for level in args.levels.split(","):
        print(json.dumps(cuts(level.strip(), args.deals, args.seed, options)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
