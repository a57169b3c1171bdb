# What a Pocha table shows (issue 29; games/base.py's Show, drawn by outputs.py): on the
# displays the seat to play (or to bid), the trump and the hand's size, then each seat's bid
# and tricks taken this hand ("bid/taken", four seats a line, in seat order); the game's
# end. A renege or a refused card says why there (the event's reason: outputs.py).
from games.base import FANFARE, Game

_SUITS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}


def show(game, out, now):
    """PochaGame.show (games/base.py: Game.show)."""
    lines = out.lines
    phase = game.phase
    if game.drawing:
        lines.append("draw for dealer")
        lines.append("seat %s: a card" % game.drawing[0])
        return 0
    if phase == "over":
        best = max(game.totals.values())
        won = [s for s in game.seats if game.totals[s] == best]
        lines.append("seat %s wins" % ",".join(won))
        lines.append("%d points" % best)
        return 0
    if phase == "trump":
        lines.append("turn the trump")
    elif phase == "bidding":
        lines.append("seat %s bids" % game.bidder)
    else:
        lines.append("seat %s to play" % game.to_play)
    trump = _SUITS.get(game.trump, "?") if game.trump else "-"
    lines.append("%s %d cards" % (trump, game.n))
    row = ""
    for i in range(len(game.seats)):
        s = game.seats[i]
        bid = game.bids.get(s)
        cell = "%s/%d" % ("-" if bid is None else bid, game.taken.get(s, 0))
        row = row + " " + cell if row else cell
        if i % 4 == 3:
            lines.append(row)
            row = ""
    if row:
        lines.append(row)
    return 0


def sound(game, ev):
    """PochaGame.sound: the game's end; else every game's."""
    if ev["type"] == "match_end":
        return FANFARE
    return Game.sound(game, ev)
