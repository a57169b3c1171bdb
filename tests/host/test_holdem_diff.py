"""Differential test (issue 10): our Hold'em evaluation against treys, an independent poker
library from PyPI, over random showdowns. Host test suite only."""

import random

from conftest import REPORT
from treys import Card as TCard
from treys import Evaluator

from plateau.fw.games.holdem.hands import SUITS, VALUE_RANK, evaluate

TREYS_RANK = {10: "T"}


def to_treys(c):
    r = TREYS_RANK.get(c[0], VALUE_RANK[c[0]])
    return TCard.new(r + SUITS[c[1]].lower())


def test_H7_ten_thousand_showdowns_rank_as_treys_ranks_them():
    rng = random.Random(7)
    deck = [(r, s) for r in range(2, 15) for s in range(4)]
    ev = Evaluator()
    n = 10_000
    ties = 0
    for _ in range(n):
        cards = rng.sample(deck, 9)
        board, a, b = cards[:5], cards[5:7], cards[7:]
        ours = (evaluate(a + board)[0] > evaluate(b + board)[0]) - (
            evaluate(a + board)[0] < evaluate(b + board)[0]
        )
        tb = [to_treys(c) for c in board]
        ta, tbb = (
            ev.evaluate(tb, [to_treys(c) for c in a]),
            ev.evaluate(tb, [to_treys(c) for c in b]),
        )
        theirs = (ta < tbb) - (ta > tbb)  # treys: lower is better
        ties += theirs == 0
        assert ours == theirs, (board, a, b)
    REPORT.append(f"holdem: {n} random showdowns ranked as treys ranks them ({ties} ties)")
