"""Match statistics: Elo from a score, its 95% interval, the likelihood of superiority and the SPRT.

Pure functions of win, loss and draw counts, shared by every game's match (tested with numbers in
tests/lab/test_match.py).

- Elo: -400*log10(1/s - 1); its 95% interval comes from the per-game score variance (trinomial).
- SPRT: the GSPRT normal approximation with logistic Elo (as cutechess and fishtest), and a forecast of
  how an unfinished one is likely to end by its cap.
"""
from __future__ import annotations

import math
import random
import statistics
from typing import Optional, Tuple


def elo_from_score(score: float) -> float:
    """Elo difference that corresponds to the expected score `score` (0..1): -400*log10(1/s - 1)."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score must lie in 0..1, got {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0      # + 0.0 turns -0.0 (at s = 0.5) into 0.0


def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` points stronger (the logistic model): 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_and_variance(wins: float, losses: float, draws: float) -> Tuple[float, float]:
    """Mean score per game and the per-game variance of the score (trinomial: 1, 1/2, 0)."""
    games = wins + losses + draws
    if games <= 0:
        raise ValueError("no games: the score is undefined")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    return score, variance


def elo_interval(wins: int, losses: int, draws: int, confidence: float = 0.95) -> Tuple[float, float]:
    """(Elo difference, margin): the margin is half the width of the `confidence` interval.

    As in cutechess: the interval of the mean score is s +/- z * sqrt(var / n) with the per-game variance
    of the trinomial; both ends are mapped to Elo and the margin is half their distance. It is infinite
    when an end reaches a score of 0 or 1.
    """
    score, variance = score_and_variance(wins, losses, draws)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    deviation = z * math.sqrt(variance / (wins + losses + draws))
    high = elo_from_score(min(1.0, score + deviation))
    low = elo_from_score(max(0.0, score - deviation))
    if math.isinf(high) or math.isinf(low):
        return elo_from_score(score), math.inf
    return elo_from_score(score), (high - low) / 2.0


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """Probability (0..1) that the first player is the stronger one; draws carry no information."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt_llr(wins: int, losses: int, draws: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) after these games.

    The generalized SPRT in its normal approximation (Van den Bergh; used by fishtest and cutechess),
    with *logistic* Elo, i.e. the hypotheses are the expected scores s0 = score_from_elo(elo0) and
    s1 = score_from_elo(elo1):  LLR = n * (s1 - s0) * (2s - s0 - s1) / (2 var),
    where s and var are the observed mean score and per-game variance. While the variance is 0 (no
    games, or only one kind of result so far: e.g. 10 wins and nothing else) the test has no scale
    and the LLR is 0 -- cutechess goes further and waits for a win, a loss and a draw.
    """
    if wins + losses + draws == 0:
        return 0.0
    score, variance = score_and_variance(wins, losses, draws)
    if variance == 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return (wins + losses + draws) * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below log(beta/(1-alpha)), H1 at or above log((1-beta)/alpha)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(llr: float, bounds: Tuple[float, float]) -> Optional[str]:
    """'H0 accepted', 'H1 accepted', or None while the LLR is between the bounds."""
    if llr <= bounds[0]:
        return "H0 accepted"
    if llr >= bounds[1]:
        return "H1 accepted"
    return None


def sprt_forecast(wins: int, losses: int, draws: int, elo0: float, elo1: float, cap: int,
                  bounds: Tuple[float, float] = sprt_bounds(0.05, 0.05), runs: int = 4000,
                  seed: int = 1) -> Tuple[float, float, float]:
    """(P(H1), P(H0), P(undecided)) at `cap` games for an SPRT standing at these counts.

    Each run draws a true Elo from the normal approximation of what the games so far say (their
    estimate and its standard error), plays the games left as trinomial results at that Elo with
    today's draw rate, and stops where the LLR first leaves the bounds: the chance a test has of
    passing, to decide whether the games it still needs are worth their hours.
    """
    games = wins + losses + draws
    decision = sprt_decision(sprt_llr(wins, losses, draws, elo0, elo1), bounds)
    if games == 0 or cap <= games or decision is not None:      # nothing left to play
        return float(decision == "H1 accepted"), float(decision == "H0 accepted"), float(decision is None)
    elo, margin = elo_interval(wins, losses, draws)
    deviation = margin / statistics.NormalDist().inv_cdf(0.975)
    draw_rate = draws / games
    rng = random.Random(seed)
    ends = {"H1 accepted": 0, "H0 accepted": 0, None: 0}
    for _ in range(runs):
        score = score_from_elo(rng.gauss(elo, deviation))
        win_rate = min(max(score - draw_rate / 2.0, 0.0), 1.0 - draw_rate)
        w, l, d = wins, losses, draws
        decision = None
        while decision is None and w + l + d < cap:
            toss = rng.random()
            if toss < win_rate:
                w += 1
            elif toss < win_rate + draw_rate:
                d += 1
            else:
                l += 1
            decision = sprt_decision(sprt_llr(w, l, d, elo0, elo1), bounds)
        ends[decision] += 1
    return ends["H1 accepted"] / runs, ends["H0 accepted"] / runs, ends[None] / runs
