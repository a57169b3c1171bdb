# Texas Hold'em pots (H6) and their settlement at showdown (H7): built by contribution
# levels, dead money of folded seats included, uncalled chips returned, each pot split among
# its best hands with the odd chips going one each from the left of the button.
from games.holdem.hands import evaluate


def seat_order(seat):
    """Seats are numbers as text: "2" before "10" (the order round the table)."""
    return (len(seat), seat)


def round_from(seats, button):
    """Every seat of `seats` and the button's, round the table from the left of the button
    (the next number up) to the button: the order odd chips go in (H7). The button need not
    be one of `seats` (a seat that folded, or is out)."""
    ordered = sorted(seats, key=seat_order)
    b = seat_order(button)
    return [s for s in ordered if seat_order(s) > b] + [s for s in ordered if seat_order(s) <= b]


def uncalled(contrib, folded):
    """(seat, chips) no other seat called: the top bettor's excess over the next highest
    contribution (folded seats' chips count: they were called, then abandoned), or None."""
    seats = sorted(contrib, key=lambda s: contrib[s], reverse=True)
    if len(seats) < 2:
        return None
    top, second = seats[0], seats[1]
    extra = contrib[top] - contrib[second]
    return (top, extra) if extra > 0 else None


def build(contrib, folded):
    """contrib: seat -> chips put in this hand (after any uncalled return); folded: seats out.
    -> [(amount, [eligible seats])], lowest level first; pots with the same eligible seats
    are merged."""
    live = [s for s in contrib if s not in folded]
    levels = sorted(set(contrib[s] for s in live))
    pots = []  # type: list[tuple]
    below = 0
    for level in levels:
        amount = 0
        for s in contrib:
            amount += max(0, min(contrib[s], level) - below)
        eligible = sorted([s for s in live if contrib[s] >= level], key=seat_order)
        if amount:
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        below = level
    dead = sum(max(0, contrib[s] - below) for s in contrib)  # folded above every live level
    if dead and pots:
        pots[-1] = (pots[-1][0] + dead, pots[-1][1])
    return pots


def settle(pots, hands, community, order):
    """Pots (from build), hands: seat -> its two (rank, suit) cards, community: five cards,
    order: seats from the left of the button round (for odd chips). -> (per pot:
    (amount, eligible, winners, shares)), values: seat -> (value, best five)."""
    values = {}
    for s in hands:
        values[s] = evaluate(list(hands[s]) + list(community))
    out = []
    for amount, eligible in pots:
        best = max(values[s][0] for s in eligible)
        winners = [s for s in order if s in eligible and values[s][0] == best]
        share, odd = divmod(amount, len(winners))
        shares = {s: share for s in winners}
        for s in winners[:odd]:  # one chip each, from the left of the button
            shares[s] += 1
        out.append((amount, eligible, winners, shares))
    return out, values
