"""Property tests over random legal Tock games (hypothesis): the invariants of T4, T13, T17
and the agreement of the two questions the engine answers (enumerate and check)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plateau.fw.games.tock.rules import CELLS, RULESETS, Card, Illegal, Position
from plateau.games.tock.generate import progress

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def deck(pos):
    cards = [r + s for r in RANKS for s in "SHDC"] + ["X"] * pos.flags["jokers"]
    return cards


def assert_sound(p):
    d = p.to_dict()
    assert all(len(v) == 4 for v in d["pawns"].values())  # 4 pawns per colour, always
    again = Position.from_dict(d)  # validates: no two pawns on a square, waiting legal
    assert again == p
    for c in p.colours():
        assert 0 <= p.camp(c) <= 4


def play(seed, rules, players, max_cards, on_move=None):
    rng = random.Random(seed)
    p = Position.initial(players, rules)
    cards = []
    for n in range(max_cards):
        if not cards:
            cards = deck(p)
            rng.shuffle(cards)
        card = Card(cards.pop())
        moves = p.legal_moves(card)
        assert p.has_move(card) == bool(moves)  # T17 agrees with the enumeration
        if not moves:
            p = p.discard(card)
            continue
        if on_move:
            on_move(p, card, moves, rng)
        seat = moves[0].seat
        if rng.random() < 0.85:
            m = max(moves, key=lambda m: (progress(m.after, m.seat), rng.random()))
        else:
            m = rng.choice(moves)
        assert m.seat == seat or p.turn == 4
        p = m.after
        assert_sound(p)
        if p.winner() is not None:
            return p, n + 1
    return p, None


def check_agrees(p, card, moves, rng):
    afters = {m.after.key()[:CELLS]: m for m in moves}
    # every enumerated move passes check, and check finds a move with that same result
    for m in rng.sample(moves, min(len(moves), 6)):
        found = p.check(card, m.after)
        assert found.after.same_placement(m.after)
    # every position check accepts is one enumerate lists: try the results of other cards
    for other in rng.sample(["A", "2", "4", "5", "7", "J", "K"], 3):
        for om in p.legal_moves(Card(other + "S"))[:4]:
            try:
                got = p.check(card, om.after)
            except Illegal:
                continue
            assert bytes(got.after.cells) in afters


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    rules=st.sampled_from(sorted(RULESETS)),
    players=st.sampled_from([2, 3, 4]),
)
def test_T4_T11_T17_random_games_keep_invariants_and_check_agrees(seed, rules, players):
    play(seed, rules, players, 120, on_move=check_agrees)


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rules=st.sampled_from(sorted(RULESETS)),
    players=st.sampled_from([2, 3, 4]),
)
def test_T19_games_end(seed, rules, players):
    p, cards = play(seed, rules, players, 4000)
    assert cards is not None, f"no winner after 4000 cards: {p.dumps()}"
    refused = False
    try:
        p.legal_moves(Card("5H"))
    except Illegal:
        refused = True
    assert refused
