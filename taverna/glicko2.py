"""Glicko-2 skill ratings (Mark E. Glickman, "Example of the Glicko-2 system", 2012).

A rating is three numbers: the rating ``r`` (1500 for a newcomer), its deviation
``rd`` (how unsure it is: 350 for a newcomer, smaller as games are played) and the
volatility ``vol`` (how erratic the player's results are). After a rating period a
player's rating moves by their results against opponents, weighted by how sure the
opponents' ratings are.

>>> me = Rating(1500, 200, 0.06)
>>> new = update(me, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round(new.r, 1), round(new.rd, 2), round(new.vol, 6)
(1464.1, 151.52, 0.059996)

Taverna's use of it (PLATFORM.md, Competition): every official game is one rating
period for its players; a deviation grows with the days a player has not played
(:func:`idle`); a pair is rated against the other pair as one opponent
(:func:`composite`); a game of three or four sides counts as the outcomes between each
two sides (:func:`outcomes`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: the scale factor between the Glicko and the Glicko-2 scales
SCALE = 173.7178
#: a newcomer's rating
START = 1500.0
START_RD = 350.0
START_VOL = 0.06
#: the system constant: how much the volatility may change in one period (0.3 to 1.2)
TAU = 0.5
#: the deviation a rating never goes above (a newcomer's)
MAX_RD = START_RD
#: below this deviation a rating is established; above it, provisional (shown as such)
PROVISIONAL_RD = 110.0
#: days of not playing that count as one empty rating period (the deviation grows)
IDLE_PERIOD_DAYS = 1.0
_EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    r: float = START
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(me: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``me`` after one rating period with ``results`` (opponent, score: 1 a win, 0.5 a
    draw, 0 a loss), every opponent's rating as it was before the period (Glickman's
    steps 1 to 8). With no results only the deviation grows."""
    mu = (me.r - START) / SCALE
    phi = me.rd / SCALE
    sigma = me.vol
    if not results:
        phi_star = min(math.sqrt(phi * phi + sigma * sigma), MAX_RD / SCALE)
        return Rating(me.r, phi_star * SCALE, sigma)
    # steps 3 and 4: the estimated variance of the rating from the games alone, and the
    # estimated improvement
    v_inv = 0.0
    total = 0.0
    for opp, score in results:
        mu_j = (opp.r - START) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    # step 5: the new volatility (the Illinois algorithm)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # steps 6 to 8: the pre-period deviation, then the new deviation and rating
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(START + SCALE * mu_new, min(SCALE * phi_new, MAX_RD), sigma_new)


def idle(me: Rating, days: float) -> Rating:
    """``me`` after ``days`` without a game: each :data:`IDLE_PERIOD_DAYS` is an empty
    rating period, so the deviation grows (a fraction of a period counts as such), up
    to a newcomer's."""
    periods = max(0.0, days) / IDLE_PERIOD_DAYS
    if periods <= 0:
        return me
    phi = me.rd / SCALE
    grown = math.sqrt(phi * phi + periods * me.vol * me.vol) * SCALE
    return Rating(me.r, min(grown, MAX_RD), me.vol)


def composite(players: Sequence[Rating]) -> Rating:
    """A side of several players as one opponent: the mean of their ratings, the
    deviation √(mean of the squared deviations) (a Mus pair: √((RD₁² + RD₂²)/2))."""
    n = len(players)
    r = sum(p.r for p in players) / n
    rd = math.sqrt(sum(p.rd * p.rd for p in players) / n)
    vol = sum(p.vol for p in players) / n
    return Rating(r, rd, vol)


def outcomes(scores: Sequence[float], winner: int) -> list[list[float]]:
    """The score of side ``i`` against side ``j`` (``[i][j]``; the diagonal 0) in a
    game of several sides: the winner beats everyone; the others compare by final score,
    equal scores a draw.

    >>> outcomes([10, 25, 10], winner=1)
    [[0.0, 0.0, 0.5], [1.0, 0.0, 1.0], [0.5, 0.0, 0.0]]
    """
    n = len(scores)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            if i == winner:
                out[i][j] = 1.0
            elif j == winner:
                out[i][j] = 0.0
            elif scores[i] > scores[j]:
                out[i][j] = 1.0
            elif scores[i] < scores[j]:
                out[i][j] = 0.0
            else:
                out[i][j] = 0.5
    return out


def rate_game(
    sides: Sequence[Sequence[Rating]], scores: Sequence[float], winner: int
) -> list[list[Rating]]:
    """Every player's rating after one game, side by side as given: each player against
    every other side (a composite of its players), all from the ratings before it."""
    table = outcomes(scores, winner)
    opponents = [composite(side) for side in sides]
    return [
        [
            update(player, [(opponents[j], table[i][j]) for j in range(len(sides)) if j != i])
            for player in side
        ]
        for i, side in enumerate(sides)
    ]


@dataclass(frozen=True)
class Fit:
    """Ratings fitted to a batch of results (:func:`fit`): each entry's rating and
    deviation, and the covariance of the ratings (rating points squared) for the
    deviation of a difference (:meth:`difference`)."""

    ratings: dict[str, Rating]
    covariance: dict[tuple[str, str], float]

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``a``'s rating minus ``b``'s, and that difference's deviation."""
        var = self.covariance[(a, a)] + self.covariance[(b, b)] - 2.0 * self.covariance[(a, b)]
        return self.ratings[a].r - self.ratings[b].r, math.sqrt(max(0.0, var))


def fit(
    entries: Sequence[str],
    results: Sequence[tuple[str, str, float, int]],
    anchor: str,
    at: float = START,
) -> Fit:
    """The ratings of ``entries`` that best explain ``results`` at once, ``anchor`` held
    at ``at``: each result is ``(a, b, score of a, games)``, the score summed over the
    games (1 a win, 0.5 a draw). Players who do not change (bots) in a batch of games
    whose order means nothing: the maximum of the likelihood under Glicko-2's expected
    score against an opponent whose rating is known, ``E = 1 / (1 + exp(−(μa − μb)))``
    on its scale (``μ = (r − 1500) / 173.7178``), found by Newton's method. Every pair
    that met also counts one drawn game more, so that a pair with all its games won has
    a finite difference. The deviation is the square root of the inverse of the
    information (the variance Glicko-2's step 3 computes, for every entry together);
    the anchor's is 0, every other's is that of its difference from the anchor.

    Two entries, ``b`` won 3 of 4 (3.5 of 5 with the drawn one): ``E = 0.7``,
    ``μ = ln(0.7 / 0.3)``, the information ``5 · 0.7 · 0.3``:

    >>> f = fit(["a", "b"], [("b", "a", 3.0, 4)], anchor="a")
    >>> round(f.ratings["b"].r, 2), round(f.ratings["b"].rd, 2)
    (1647.19, 169.53)
    """
    names = list(dict.fromkeys(entries))
    index = {name: i for i, name in enumerate(names)}
    if anchor not in index:
        raise ValueError(f"the anchor {anchor!r} is not one of the entries")
    n = len(names)
    score = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for a, b, s, count in results:
        if count <= 0:
            continue
        i, j = index[a], index[b]
        if i == j:
            raise ValueError(f"{a!r} cannot be rated against itself")
        score[i][j] += s
        score[j][i] += count - s
        games[i][j] += count
        games[j][i] += count
    for i in range(n):
        for j in range(n):
            if games[i][j]:
                score[i][j] += 0.5
                games[i][j] += 1.0
    free = [i for i in range(n) if i != index[anchor]]
    _check_connected(names, games, index[anchor])
    mu = [0.0] * n
    for _ in range(100):
        grad, info = _gradient(mu, score, games, free)
        step = _solve(info, grad)
        for k, i in enumerate(free):
            mu[i] += max(-2.0, min(2.0, step[k]))  # a careful first step from far away
        if max((abs(x) for x in step), default=0.0) < 1e-10:
            break
    _, info = _gradient(mu, score, games, free)
    inverse = _inverse(info)
    cov: dict[tuple[str, str], float] = {}
    for a in names:
        for b in names:
            i, j = index[a], index[b]
            v = inverse[free.index(i)][free.index(j)] if i in free and j in free else 0.0
            cov[(a, b)] = v * SCALE * SCALE
    ratings = {
        name: Rating(at + SCALE * mu[index[name]], math.sqrt(max(0.0, cov[(name, name)])), 0.0)
        for name in names
    }
    return Fit(ratings, cov)


def _gradient(
    mu: list[float], score: list[list[float]], games: list[list[float]], free: list[int]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and the information matrix (minus its Hessian) in
    the free entries."""
    n = len(mu)
    grad = [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j or not games[i][j]:
                continue
            e = 1.0 / (1.0 + math.exp(-(mu[i] - mu[j])))
            grad[i] += score[i][j] - games[i][j] * e
            w = games[i][j] * e * (1.0 - e)
            info[i][i] += w
            info[i][j] -= w
    return [grad[i] for i in free], [[info[i][j] for j in free] for i in free]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` (Gaussian elimination; the matrix is symmetric positive
    definite once the entries are connected to the anchor)."""
    inverse = _inverse(matrix)
    return [sum(row[k] * vector[k] for k in range(len(vector))) for row in inverse]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    a = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def _check_connected(names: list[str], games: list[list[float]], anchor: int) -> None:
    seen = {anchor}
    todo = [anchor]
    while todo:
        i = todo.pop()
        for j in range(len(names)):
            if games[i][j] and j not in seen:
                seen.add(j)
                todo.append(j)
    apart = [names[i] for i in range(len(names)) if i not in seen]
    if apart:
        raise ValueError(
            f"no chain of games links {', '.join(apart)} to {names[anchor]}: "
            "their ratings cannot be compared"
        )
