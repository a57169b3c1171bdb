"""Property test (issue 11): over random deals and random legal play the after-the-hand
check (K9) finds nothing, and it finds every violation injected."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from plateau.fw.games.pocha.rules import SUITS, check_hand, deck, legal, winning


def play_hand(rng, players, size, inject):
    cards = deck(size, players)
    rng.shuffle(cards)
    per = len(cards) // players
    n = rng.randint(1, per)
    seats = [str(i + 1) for i in range(players)]
    hands = {s: cards[i * n : (i + 1) * n] for i, s in enumerate(seats)}
    trump = rng.choice(SUITS)
    held = {s: list(h) for s, h in hands.items()}
    tricks, injected = [], []
    leader = seats[0]
    for t in range(n):
        i = seats.index(leader)
        order = seats[i:] + seats[:i]
        table, plays = [], []
        for s in order:
            ok = legal(held[s], table, trump)
            bad = [c for c in held[s] if c not in ok]
            if inject and bad and rng.random() < 0.3:
                c = rng.choice(bad)
                injected.append((t + 1, s))
            else:
                c = rng.choice(ok)
            held[s].remove(c)
            table.append(c)
            plays.append((s, c))
        tricks.append((leader, plays))
        leader = order[winning(table, trump)]
    return hands, tricks, trump, injected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([(3, 40), (4, 40), (5, 40), (6, 48), (8, 40)]))
def test_K9_legal_play_has_no_violation_and_injected_ones_are_all_found(seed, table):
    rng = random.Random(seed)
    players, size = table
    hands, tricks, trump, _ = play_hand(rng, players, size, inject=False)
    assert check_hand(hands, tricks, trump) == []
    hands, tricks, trump, injected = play_hand(rng, players, size, inject=True)
    found = [(n, s) for n, s, _, _ in check_hand(hands, tricks, trump)]
    assert found == injected
