"""Run with PYTHONPATH=/tmp/old (the engines of b08b876): tables played as that server played them."""
import json, random, sys
from taverna.games import get_game

out = []
for game, seats, settings, seed, stop_hand in [
    ("muggins-dominoes", 2, {}, 123456789, 2),
    ("muggins-cards", 3, {"target": 400}, 987654321, 2),
    ("mus", 4, {}, 55555, 2),
]:
    cls = get_game(game)
    state = cls.new(seats, settings, seed=seed)
    rng = random.Random(seed + 1)
    actions = []
    while not state.over and state.hand_no < stop_hand:
        a = rng.choice(state.legal_actions())
        state.clone().apply(a)  # the old Room.submit's trial, sharing the game's generator
        state.apply(a)
        actions.append(a.to_json())
    # a few moves into that hand
    for _ in range(3):
        if state.over: break
        a = rng.choice(state.legal_actions())
        state.clone().apply(a)
        state.apply(a)
        actions.append(a.to_json())
    out.append({
        "game": game, "seats": seats, "settings": state.settings, "seed": seed,
        "actions": actions,
        "hand": state.hand_no,
        "views": [state.view(s) for s in range(seats)],
        "deals": state.record()["deals"],
    })
json.dump(out, sys.stdout, indent=1)
