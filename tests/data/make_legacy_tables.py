"""How ``legacy-tables.json`` was made: tables played the way Taverna's servers played
them before deals were stored (commit b08b876), to test that such tables still resume.

Those servers dealt every hand from one ``random.Random(seed)`` and tried each move on
a copy of the game that shared that generator before playing it. Run with the engines
of that commit first on the path::

    git archive b08b876 taverna | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python tests/data/make_legacy_tables.py \
        > tests/data/legacy-tables.json
"""

import json
import random
import sys
from typing import Any

from taverna.games import get_game

TABLES = [
    ("muggins-dominoes", 2, {}, 123456789, 2),
    ("muggins-cards", 3, {"target": 400}, 987654321, 2),
    ("mus", 4, {}, 55555, 2),
]


def play(state: Any, rng: random.Random, actions: list[Any]) -> None:
    a = rng.choice(state.legal_actions())
    state.clone().apply(a)  # the old Room.submit's trial, sharing the game's generator
    state.apply(a)
    actions.append(a.to_json())


def main() -> None:
    out = []
    for game, seats, settings, seed, stop_hand in TABLES:
        cls = get_game(game)
        state = cls.new(seats, settings, seed=seed)
        rng = random.Random(seed + 1)
        actions = []

        while not state.over and state.hand_no < stop_hand:
            play(state, rng, actions)
        for _ in range(3):  # a few moves into that hand
            if not state.over:
                play(state, rng, actions)
        out.append(
            {
                "game": game,
                "seats": seats,
                "settings": state.settings,
                "seed": seed,
                "actions": actions,
                "hand": state.hand_no,
                "views": [state.view(s) for s in range(seats)],
                "deals": state.record()["deals"],
            }
        )
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
