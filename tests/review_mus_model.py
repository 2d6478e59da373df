"""A small reference model of Mus written from docs/rules.md §3 alone.

It shares nothing with :mod:`taverna.games.mus` (its hands module included) but the card
notation: hands are lists of card names, hand values are tuples compared
directly. :func:`play_against_model` plays a random game on the engine and the
model side by side and reports the first disagreement on legal actions, the
seat to act, stones, games, cows or the winner.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from taverna.games.mus import Mus

JUEGO_ORDER = [31, 32, 40, 37, 36, 35, 34, 33]


def rank(card: str) -> int:
    return int(card[:-1])


def order_value(r: int) -> int:
    """king (12 or 3) > 11 > 10 > 7 > 6 > 5 > 4 > ace (1 or 2)."""
    return {1: 1, 2: 1, 3: 12}.get(r, r)


def points(r: int) -> int:
    """10, 11, 12 and 3 are worth 10; 1 and 2 are worth 1; 4–7 their face value."""
    if r in (10, 11, 12, 3):
        return 10
    return 1 if r in (1, 2) else r


def evaluate(hand: list[str], real_31: bool) -> dict[str, Any]:
    ranks = [rank(c) for c in hand]
    high = sorted((order_value(r) for r in ranks), reverse=True)
    counts: dict[int, int] = {}
    for v in high:
        counts[v] = counts.get(v, 0) + 1
    groups = sorted(((n, v) for v, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        kind, pares = 0, (0,)
    elif groups[0][0] == 4:
        kind, pares = 3, (3, groups[0][1], groups[0][1])
    elif len(groups) == 2:
        a, b = sorted((v for _, v in groups), reverse=True)
        kind, pares = 3, (3, a, b)
    elif groups[0][0] == 3:
        kind, pares = 2, (2, groups[0][1])
    else:
        kind, pares = 1, (1, groups[0][1])
    total = sum(points(r) for r in ranks)
    juego = len(JUEGO_ORDER) - JUEGO_ORDER.index(total) if total in JUEGO_ORDER else 0
    if real_31 and sorted(ranks) == [7, 7, 7, 10]:
        juego = 100
    return {
        "grande": tuple(high),
        "chica": tuple(-v for v in sorted(high)),
        "kind": kind,
        "pares": pares,
        "points": total,
        "juego": juego,
    }


class MusModel:
    def __init__(self, settings: dict[str, Any]) -> None:
        self.cows_to_win = settings["cows"]
        self.games_per_cow = settings["games_per_cow"]
        self.real_31 = settings["real_31"]
        self.stones = [0, 0]
        self.games = [0, 0]
        self.cows = [0, 0]
        self.over = False
        self.winner: int | None = None
        self.mano: int | None = None
        self.turn: int | None = None

    def begin(self, hands: list[list[str]], deck: list[str], mano: int | None) -> None:
        # drawn for the first hand, then the next seat every hand, across games
        self.mano = mano if self.mano is None else (self.mano + 1) % 4
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)  # top first
        self.piles: list[list[str]] = [[], [], [], []]
        self.phase = "mus"
        self.turn = self.mano
        self.said = 0
        self.results: dict[int, tuple[str, int | None, int]] = {}

    def seats_from_mano(self) -> list[int]:
        assert self.mano is not None
        return [(self.mano + i) % 4 for i in range(4)]

    # ------------------------------------------------------------ queries

    def legal(self) -> set[str]:
        s = self.turn
        if s is None:
            return set()

        def j(**kw: Any) -> str:
            return json.dumps({"seat": s, **kw}, sort_keys=True)

        if self.phase == "mus":
            return {j(type="mus"), j(type="no_mus")}
        if self.phase == "discard":
            return {
                j(type="discard", cards=sorted(combo))
                for k in range(1, 5)
                for combo in itertools.combinations(self.hands[s], k)
            }
        amounts = (2, 3, 4, 5)
        if self.phase == "speak":
            return {j(type="pass"), j(type="ordago")} | {j(type="bet", amount=n) for n in amounts}
        if self.ordago:
            return {j(type="accept"), j(type="reject")}
        answers = {j(type="accept"), j(type="reject"), j(type="ordago")}
        return answers | {j(type="raise", amount=n) for n in amounts}

    def key(self, lance: int, seat: int) -> Any:
        v = self.values[seat]
        if lance == 3:
            return v["points"] if self.punto else v["juego"]
        return v[("grande", "chica", "pares")[lance]]

    def best(self, lance: int, among: list[int]) -> int:
        """Ties go to the player closest to mano."""
        best: int | None = None
        for x in self.seats_from_mano():
            if x in among and (best is None or self.key(lance, x) > self.key(lance, best)):
                best = x
        assert best is not None
        return best

    def taking_part(self, lance: int) -> list[int]:
        order = self.seats_from_mano()
        if lance < 2:
            return order
        if lance == 2:
            return [x for x in order if self.values[x]["kind"]]
        holders = [x for x in order if self.values[x]["juego"]]
        return holders or order  # nobody has juego: punto, everyone

    # ------------------------------------------------------------ lances

    def open_lance(self) -> None:
        while self.lance < 4:
            lance = self.lance
            if lance == 3:
                self.punto = not any(self.values[x]["juego"] for x in range(4))
            part = self.taking_part(lance)
            if lance == 2 and not part:
                self.results[lance] = ("skipped", None, 0)
                self.lance += 1
                continue
            pairs = {x % 2 for x in part}
            if len(pairs) == 1:
                self.results[lance] = ("alone", pairs.pop(), 0)
                self.lance += 1
                continue
            self.part, self.spoken, self.phase, self.turn = part, 0, "speak", part[0]
            self.stake, self.bets, self.ordago, self.before = 0, 0, False, 0
            return
        self.count()

    def credit(self, pair: int, n: int) -> bool:
        self.stones[pair] += n
        if self.stones[pair] >= 40:
            self.win_game(pair)
            return True
        return False

    def win_game(self, pair: int) -> None:
        self.turn, self.phase = None, "idle"
        self.games[pair] += 1
        if self.games[pair] >= self.games_per_cow:
            self.cows[pair] += 1
            if self.cows[pair] >= self.cows_to_win:
                self.over, self.winner = True, pair
                return
            self.games = [0, 0]
        self.stones = [0, 0]

    def count(self) -> None:
        self.phase, self.turn = "idle", None
        for lance in range(4):
            status, pair, stake = self.results[lance]
            if status == "skipped":
                continue
            if status in ("pass", "accepted"):
                pair = self.best(lance, self.taking_part(lance)) % 2
            assert pair is not None
            n = stake if status == "accepted" else 0
            if lance < 2:
                n = 1 if status == "pass" else n
            elif lance == 2:
                n += sum(self.values[x]["kind"] for x in (pair, pair + 2))
            elif self.punto:
                n += 1
            else:
                for x in (pair, pair + 2):
                    if self.values[x]["juego"]:
                        n += 3 if self.values[x]["points"] == 31 else 2
            if n and self.credit(pair, n):
                return

    def answer(self, bettor: int) -> None:
        self.bet_pair = bettor % 2
        self.answerers = [(bettor + i) % 4 for i in (1, 3) if (bettor + i) % 4 in self.part]
        self.asked, self.phase, self.turn = 0, "answer", self.answerers[0]

    # ------------------------------------------------------------ actions

    def apply(self, a: dict[str, Any], reshuffle: list[str] | None = None) -> None:
        kind, s = a["type"], a["seat"]
        assert s == self.turn
        if kind == "mus":
            self.said += 1
            self.turn = (s + 1) % 4
            if self.said == 4:
                self.phase, self.turn, self.served = "discard", self.mano, 0
        elif kind == "no_mus":
            self.values = [evaluate(h, self.real_31) for h in self.hands]
            self.lance, self.punto = 0, False
            self.open_lance()
        elif kind == "discard":
            thrown = a["cards"]
            assert all(c in self.hands[s] for c in thrown)
            drawn: list[str] = []
            while self.deck and len(drawn) < len(thrown):
                drawn.append(self.deck.pop(0))
            if len(drawn) < len(thrown):
                # the discards of this hand, except those just thrown by seat s
                pile = sorted(c for p in self.piles for c in p)
                assert reshuffle is not None and sorted(reshuffle) == pile
                self.deck, self.piles = list(reshuffle), [[], [], [], []]
                while len(drawn) < len(thrown):
                    drawn.append(self.deck.pop(0))
            self.hands[s] = [c for c in self.hands[s] if c not in thrown] + drawn
            self.piles[s] += thrown
            self.served += 1
            self.turn = (s + 1) % 4
            if self.served == 4:
                self.phase, self.said, self.turn = "mus", 0, self.mano
        elif kind == "pass":
            self.spoken += 1
            if self.spoken < len(self.part):
                self.turn = self.part[self.spoken]
            else:
                self.results[self.lance] = ("pass", None, 0)
                self.lance += 1
                self.open_lance()
        elif kind == "bet":
            self.before, self.stake, self.bets = 1, a["amount"], 1
            self.answer(s)
        elif kind == "raise":
            assert not self.ordago
            self.before, self.stake, self.bets = self.stake, self.stake + a["amount"], self.bets + 1
            self.answer(s)
        elif kind == "ordago":
            assert not self.ordago
            self.before = self.stake if self.bets else 1
            self.bets, self.ordago = self.bets + 1, True
            self.answer(s)
        elif kind == "accept":
            if self.ordago:
                self.win_game(self.best(self.lance, self.part) % 2)
                return
            self.results[self.lance] = ("accepted", None, self.stake)
            self.lance += 1
            self.open_lance()
        elif kind == "reject":
            self.asked += 1
            if self.asked < len(self.answerers):
                self.turn = self.answerers[self.asked]
                return
            self.results[self.lance] = ("refused", self.bet_pair, 0)
            if self.credit(self.bet_pair, self.before):
                return
            self.lance += 1
            self.open_lance()


def _key(action: dict[str, Any]) -> str:
    if action["type"] == "discard":
        action = {**action, "cards": sorted(action["cards"])}
    return json.dumps(action, sort_keys=True)


def play_against_model(seed: int, settings: dict[str, Any]) -> Any:
    """Play a random game on the engine and the model; the first disagreement, or None."""
    rng = random.Random(seed)
    state = Mus.new(4, settings, seed=seed)
    model = MusModel(state.settings)
    wants_mus = rng.random()
    used = 0
    steps = 0
    while True:
        while len(state.deals_used) > used:
            d = Mus.deal_json(state.deals_used[used])
            model.begin(d["hands"], d["deck"], d["mano"] if used == 0 else None)
            used += 1
            if model.mano != state.mano:
                return {"hand": used - 1, "mano": state.mano, "model mano": model.mano}
        if state.over or steps >= 4000:
            return None
        legal = {_key(a.to_json()) for a in state.legal_actions()}
        if legal != model.legal():
            return {"step": steps, "engine only": sorted(legal - model.legal())[:4],
                    "model only": sorted(model.legal() - legal)[:4]}  # fmt: skip
        choices = sorted(legal)
        a = json.loads(rng.choice(choices))
        if a["type"] in ("mus", "no_mus"):
            a["type"] = "mus" if rng.random() < wants_mus else "no_mus"
        elif a["type"] in ("bet", "raise", "ordago") and rng.random() < 0.85:
            a = json.loads(rng.choice(choices))  # fewer bets: more hands reach the count
        hand, before = state.hand_no, len(Mus.deal_json(state.deals_used[-1]).get("reshuffles", []))
        state.apply(Mus.parse_action(a, 4))
        reshuffle = None
        shuffles = Mus.deal_json(state.deals_used[hand]).get("reshuffles", [])
        if a["type"] == "discard" and len(shuffles) > before:
            reshuffle = shuffles[-1]
        model.apply(a, reshuffle)
        steps += 1
        turn = state.turn if state.turn >= 0 else None
        mine = (state.stones, state.games, state.cows, state.over, state.winner)
        theirs = (model.stones, model.games, model.cows, model.over, model.winner)
        if mine != theirs or (turn != model.turn and state.hand_no == hand):
            return {"step": steps, "action": a, "engine": mine, "model": theirs}
