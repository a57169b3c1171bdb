# What a Tock table shows (issue 29; games/base.py's Show, drawn by outputs.py), as plain
# data from the tracker's state: no I/O. On the squares' LEDs:
# - the colour to play at its home (every seat's after a joker, T18);
# - once a card is read (hints on): the pawns that have a legal move with it, white; while a
#   pawn is lifted (hints "squares"): instead, the squares it may end on with that card (a 7:
#   any square some legal split allows it, T11), white (games/tock/hints.py, worked out a
#   piece a pass by the table: Position.reaching, Show.job);
# - the last move's squares, dim, for _LAST_MS;
# - a board reported wrong (`illegal`): the squares its `fix` names blinking red (a camp
#   named as a whole: its four slots);
# - the game won: the winner's home blinking in its colour.
# On the displays (16 characters a line): whose turn, the card, how many pawns can go; the
# squares to put right; the winner. The table adds the card spot's light and an event's
# reason (outputs.py).
from micropython import const

from clock import elapsed
from games.base import BLINK, DIM, FANFARE, RED, WHITE, Game
from games.tock import hints  # noqa: F401  (Position.reach's, loaded with the show: loaded

# at the first card, mid-game, it would stay an island splitting the heap)
from games.tock.rules import ANY, CELLS, COLOURS, home_square, sensor_cell

_LAST_MS = const(4000)  # the last move's squares stay lit this long
_NAMES = ("RED", "GREEN", "BLUE", "YELLOW")


def show(game, out, now):
    """TockGame.show (games/base.py: Game.show)."""
    pos = game.pos
    lights = out.lights
    leds = game.cell_leds()  # cell -> LED (255: none); camp slot k at CELLS + k
    lines = out.lines
    wait = 0
    won = pos.winner()
    if won is not None:
        team = pos.teams()
        colours = pos.team_colours(won) if team else pos.seat_colours(won)
        for c in colours:
            _home(lights, leds, c, (c + 1) | BLINK)
        said = "+".join(_NAMES[c] for c in colours) + (" win" if team else " wins")
        if len(said) > 16:  # (a line's width: the colours' letters)
            said = "+".join(_NAMES[c][0] for c in colours) + (" win" if team else " wins")
        lines.append(said)
        lines.append("game over")
        return 0
    # the last move's squares, for a while
    moved = game.moved_at
    if moved is not None:
        left = _LAST_MS - elapsed(now, moved)
        if left > 0 and pos._history:
            for _, f, t in pos._history[-1][3].parts:
                for s in (f, t):
                    if s is not None and leds[s] != 255:
                        lights[leds[s]] = DIM
            wait = left
    # whose turn: its home in its colour (over the last move's squares, so it always shows)
    colours = pos.colours() if pos.turn == ANY else pos.seat_colours(pos.seat_of(pos.turn))
    for c in colours:
        _home(lights, leds, c, c + 1)
    lines.append("any seat: joker" if pos.turn == ANY else _NAMES[colours[0]] + " to play")
    card = game.card
    if card is not None:
        lines.append("card " + str(card))
        if out.hints:
            buf = game.reach_buf()
            lifted = game.lifted() if out.hints == 2 else None
            if lifted is None:
                lifted = -1
            elif lifted >= 100:  # a pawn from a camp slot: its colour's camp
                lifted = CELLS + (lifted - 100) // 4
            job = pos.reaching(card, buf, lifted)
            if not job.done:  # worked out a piece a pass (a crowded 7: several): then
                out.job = job  # shown, the table asking again
            elif lifted < 0:
                n = _lit_pawns(game, pos, buf, lights, leds)
                lines.append("%d pawns can go" % n if n != 1 else "1 pawn can go")  # (16 wide)
            else:
                n = job.count
                lines.append("%d squares to go" % n if n != 1 else "1 square to go")
                _lit(buf, lights, leds)
    else:
        lines.append("lay a card")
    if game.owed and game.fix:  # an `illegal` said and not yet corrected
        named = _named(game.fix)
        for s in named:
            led = leds[s if s < CELLS else CELLS + s - 100]
            if led != 255:
                lights[led] = RED | BLINK
        lines.append("put right:")
        text = ""
        for s in named:
            if s < CELLS:
                from games.tock.rules import square_name

                word = square_name(s)
                if len(text) + len(word) > 15:
                    lines.append(text)
                    text = ""
                text = (text + " " + word) if text else word
        if text:
            lines.append(text)
    return wait


def _home(lights, leds, c, colour):
    for k in range(1, 5):
        led = leds[home_square(c, k)]
        if led != 255:
            lights[led] = colour


def _lit(buf, lights, leds):
    """The squares set in buf (Position.reach's cells) lit white; how many. The set ones are
    found by find (a search in C, in place): a few squares of 88."""
    n = 0
    q = buf.find(b"\x01", 0, CELLS)
    while q >= 0:
        n += 1
        if leds[q] != 255:
            lights[leds[q]] = WHITE
        q = buf.find(b"\x01", q + 1, CELLS)
    return n


def _lit_pawns(game, pos, buf, lights, leds):
    """The pawns with a legal move (buf from Position.reach, s = -1) lit white: on the
    track and in the homes by square, in a camp the slots that hold a pawn. How many."""
    n = _lit(buf, lights, leds)
    for c in range(4):
        if buf[CELLS + c]:
            n += pos.camp(c)
            for k in range(4):
                led = leds[CELLS + 4 * c + k]
                if led != 255 and game.camp[4 * c + k]:
                    lights[led] = WHITE
    return n


def _named(fix):
    """The squares a `fix` text names (cells, or 100 + a camp slot), a camp named as a whole
    ("put 1 R pawn back in camp", "R camp has 1 pawn too many") as its four slots."""
    out = []
    for clause in fix.split(";"):
        words = clause.replace(",", " ").replace("(", " ").replace(")", " ").split()
        whole = clause.endswith("back in camp") or clause.endswith("too many")
        for w in words:
            if w.endswith("'s"):
                w = w[:-2]
            a, _, b = w.partition("-")  # a range ("GC1-GC4") is every square in it
            s, e = sensor_cell(a), sensor_cell(b) if b else 255
            if s != 255 and e != 255 and s < e <= s + 18:
                for x in range(s, e + 1):
                    if x not in out:
                        out.append(x)
            elif s != 255 and s not in out:
                out.append(s)
            elif whole and len(w) == 1 and w in COLOURS:
                c = COLOURS.index(w)
                for k in range(4):
                    if 100 + 4 * c + k not in out:
                        out.append(100 + 4 * c + k)
    return out


def sound(game, ev):
    """TockGame.sound: a game won sounds the fanfare; the rest as every game's."""
    if ev["type"] == "win":
        return FANFARE
    return Game.sound(game, ev)
