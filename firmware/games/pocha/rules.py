# Pocha (docs/rules/pocha.md, K1-K10): the Spanish deck, the hand schedule, trumps,
# bids, legal plays, tricks, scores, and the after-the-hand check of every play. Pure.

from games.cards import CardError, parse_spanish

SUITS = "OCEB"  # oros, copas, espadas, bastos (as games/cards.py reads them)
# K1: rank within a suit, high to low: as, 3, rey, caballo, sota, (9, 8,) 7, 6, 5, 4, 2
ORDER = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)


class PochaError(ValueError):
    pass


def card(text):
    """K1b: '1O' -> (1, 'O'); '12B' -> (12, 'B'). PochaError when it is not a card."""
    try:
        return parse_spanish(text)
    except CardError as e:
        raise PochaError(str(e))


def name(c):
    return "%d%s" % c


def strength(c):
    """Higher beats lower within a suit (K1)."""
    return len(ORDER) - ORDER.index(c[0])


def deck(size, players):
    """K1: the cards in play for this many players, or PochaError."""
    if size not in (40, 48):
        raise PochaError("the Spanish deck has 40 or 48 cards")
    ranks = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12] + ([8, 9] if size == 48 else [])
    if size == 40 and players in (3, 6):
        ranks.remove(2)  # 36 cards
    elif size == 40 and players not in (4, 5, 8) or size == 48 and players not in (3, 4, 6, 8):
        raise PochaError("a %d-card deck does not deal evenly to %d players" % (size, players))
    return [(r, s) for s in SUITS for r in ranks]


def schedule(size, players, kind="default"):
    """K3: the number of cards dealt in each hand."""
    m = len(deck(size, players)) // players
    if kind == "default":
        return list(range(1, m)) + [m] * players + list(range(m - 1, 0, -1))
    if kind == "short":
        return list(range(1, m + 1))
    if kind == "full":
        return [m] * players
    raise PochaError("schedule must be default, short or full")


def bid_refused(bid, cards, bids_so_far, dealer_bidding):
    """K5: why this bid may not be made, or None."""
    if not isinstance(bid, int) or not 0 <= bid <= cards:
        return "a bid is 0 to %d in a hand of %d cards" % (cards, cards)
    if dealer_bidding and cards > 1 and sum(bids_so_far) + bid == cards:
        return "the dealer may not make the bids add up to %d (K5)" % cards
    return None


def winning(trick, trump):
    """K7: the index in `trick` (cards in play order) of the card winning it so far."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c[1] == b[1]:
            if strength(c) > strength(b):
                best = i
        elif c[1] == trump:
            best = i
    return best


def legal(hand, trick, trump):
    """K6: the cards of `hand` that may be played on `trick` (cards already on the table)."""
    if not trick:
        return list(hand)
    led = trick[0][1]
    follow = [c for c in hand if c[1] == led]
    best = trick[winning(trick, trump)]
    if follow:
        if led != trump and best[1] == trump:
            return follow  # won by a trump: any card of the led suit will do
        over = [c for c in follow if strength(c) > strength(best)]
        return over or follow
    trumps = [c for c in hand if c[1] == trump]
    if trumps:
        if best[1] == trump:
            over = [c for c in trumps if strength(c) > strength(best)]
            return over or list(hand)  # cannot beat the trumps: any card
        return trumps
    return list(hand)


def score(bid, taken):
    """K8."""
    return 10 + 5 * taken if bid == taken else -5 * abs(bid - taken)


def check_hand(hands, tricks, trump):
    """K9 after the hand: hands: seat -> the cards it was dealt; tricks: [(leader, [(seat,
    card), ...])] in order. -> [(trick number, seat, card played, legal cards)] for every
    play that broke K6."""
    held = dict((s, list(hands[s])) for s in hands)
    out = []
    for n in range(len(tricks)):
        plays = tricks[n][1]
        table = []  # type: list
        for seat, c in plays:
            ok = legal(held[seat], table, trump)
            if c not in ok:
                out.append((n + 1, seat, c, ok))
            if c in held[seat]:
                held[seat].remove(c)
            table.append(c)
    return out


def ranking(seats, totals):
    """K10: [(seat, total, place)], highest total first; seats with equal totals share a
    place and are listed in seat order. Ordered by an explicit key, not by a stable sort
    (MicroPython's sort is not stable): the board and the laptop list them alike."""
    order = sorted(range(len(seats)), key=lambda i: (-totals[seats[i]], i))
    out = []
    for i in order:
        s = seats[i]
        above = 0
        for t in seats:
            if totals[t] > totals[s]:
                above += 1
        out.append((s, totals[s], above + 1))
    return out


def first_dealer(draws, seats):
    """K2: each seat lays one card; the highest (K1's order, the as highest) deals first.
    -> (seat, None), or (None, the seats tied on the highest rank, in seat order: they draw
    again; suits do not break ties)."""
    best = max(strength(c) for c in draws.values())
    top = [s for s in seats if s in draws and strength(draws[s]) == best]
    return (top[0], None) if len(top) == 1 else (None, top)
