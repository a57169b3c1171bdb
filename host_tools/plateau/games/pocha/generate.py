"""Pocha's generator (`plateau gen --game pocha`, the harnesses' Pocha matches)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class PochaGame:
    script: str
    hands: list[dict] = field(default_factory=list)  # per hand: bids, taken, scores
    totals: dict[str, int] = field(default_factory=dict)
    ranking: list[str] = field(default_factory=list)  # seats, first place first (K10)
    places: list[tuple] = field(default_factory=list)  # (seat, total, place), as the board
    dealer: str = "1"  # the first dealer (drawn at the table when the script draws: K2)


def generate(
    players: int = 3,
    size: int = 40,
    kind: str = "short",
    seed: int = 0,
    pace: int = 150,
    draw: bool = False,
) -> PochaGame:
    """A whole random legal Pocha game as a table script: the draw for the first dealer
    (with `draw`: K2), then for each hand the dealer's turned card, the bids (`send bid`),
    and every card played in turn."""
    from plateau.fw.games.pocha.rules import (
        bid_refused,
        deck,
        first_dealer,
        legal,
        name,
        ranking,
        schedule,
        score,
        winning,
    )

    rng = random.Random(seed)
    seats = [str(i + 1) for i in range(players)]
    cards = deck(size, players)
    plan = schedule(size, players, kind)
    lines = [
        f"# generated: pocha players={players} deck={size} schedule={kind} seed={seed}",
        f"table pocha players={players} deck={size} schedule={kind} dealer=1",
        f"pace {pace}",
    ]
    game = PochaGame(script="", totals={s: 0 for s in seats})
    dealer = "1"
    if draw:  # each seat lays a card; the tied on the highest card draw again (K2)
        lines.append("send draw")
        pack = list(cards)
        rng.shuffle(pack)
        drawing = list(seats)
        while drawing:
            draws = {s: pack.pop() for s in drawing}
            lines += [f"card {name(draws[s])}" for s in drawing]
            winner, tied = first_dealer(draws, seats)
            drawing = tied or []
        dealer = game.dealer = winner
        lines.append("gather  # the draw's cards are taken back")
    k = 0
    tiebreak = False
    while True:
        n = 1 if tiebreak else plan[k]
        pack = list(cards)
        rng.shuffle(pack)
        order = seats[seats.index(dealer) + 1 :] + seats[: seats.index(dealer) + 1]
        hands = {s: pack[i * n : (i + 1) * n] for i, s in enumerate(order)}
        full = n * players == len(cards)
        turned = hands[dealer][-1] if full else pack[n * players]
        trump = turned[1]
        if tiebreak:
            lines.append("# tie-break hand")
        lines.append(f"card {name(turned)}")
        if full:
            lines.append("gather  # the dealer takes the turned card back (K4)")
        bids: dict[str, int] = {}
        for s in order:
            ok = [
                b
                for b in range(n + 1)
                if bid_refused(b, n, list(bids.values()), s == dealer) is None
            ]
            bids[s] = rng.choice(ok)
            lines.append(f"send bid {s} {bids[s]}")
        taken = {s: 0 for s in seats}
        leader = order[0]
        held = {s: list(h) for s, h in hands.items()}
        for _ in range(n):
            i = seats.index(leader)
            turn = seats[i:] + seats[:i]
            table: list = []
            for s in turn:
                c = rng.choice(legal(held[s], table, trump))
                held[s].remove(c)
                table.append(c)
                lines.append(f"card {name(c)}")
            leader = turn[winning(table, trump)]
            taken[leader] += 1
        lines.append("gather  # the cards are gathered and dealt again")
        lines.append("wait 1000")
        scores = {s: score(bids[s], taken[s]) for s in seats}
        for s in seats:
            game.totals[s] += scores[s]
        game.hands.append({"bids": bids, "taken": taken, "scores": scores})
        dealer = seats[(seats.index(dealer) + 1) % players]
        if not tiebreak:
            k += 1
        if k >= len(plan):
            best = max(game.totals.values())
            tiebreak = list(game.totals.values()).count(best) > 1
            if not tiebreak:
                break
    game.places = ranking(seats, game.totals)
    game.ranking = [s for s, _, _ in game.places]
    game.script = "\n".join(lines) + "\n"
    return game
