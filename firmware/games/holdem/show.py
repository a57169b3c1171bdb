# What a Texas Hold'em table shows (issue 29; games/base.py's Show, drawn by outputs.py): on
# the displays the seat to act, the street and the pot; at the showdown who won each pot;
# while the button is drawn or hole cards are shown, whose card is awaited. The card spot's
# light and a refusal's reason are the table's (outputs.py).
from games.base import FANFARE, Game
from games.holdem.betting import STREETS


def show(game, out, now):
    """HoldemGame.show (games/base.py: Game.show)."""
    lines = out.lines
    h = game.hand
    if game.drawing:
        lines.append("draw for button")
        lines.append("seat %s: a card" % game.drawing[0])
        return 0
    if h is None:
        lines.append("button: seat %s" % game.button)
        lines.append("send hand")
        return 0
    pot = sum(h.contrib.values())
    if h.over and h.result:
        for amount, _, winners, _ in h.result[:6]:
            lines.append("%d: seat %s" % (amount, ",".join(winners)))
        return 0
    lines.append(STREETS[h.street] + " pot %d" % pot)
    laid = len(game.community)
    if game.showing:
        lines.append("seat %s: show" % game.showing)
    elif laid < game._board_due():  # the street's cards first (H4): none acts before them,
        # and all of them once the betting is over (all in)
        lines.append("lay the " + ("flop", "flop", "flop", "turn", "river")[laid])
    elif h.to_act is not None:
        lines.append("seat %s to act" % h.to_act)
        bet = h.bet.get(h.to_act, 0)
        top = max(h.bet.values()) if h.bet else 0
        lines.append("to call %d" % (top - bet) if top > bet else "check or bet")
    return 0


def sound(game, ev):
    """HoldemGame.sound: a pot won; else every game's."""
    if ev["type"] == "pot":
        return FANFARE
    return Game.sound(game, ev)
