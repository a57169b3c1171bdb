# The Tock tracker's `illegal` and `corrected` (issue 17): a wrong board, then the right move.
# Seeded random positions and cards, a wrong board held until the table says `illegal` (T17:
# the card's move must be made), then hands
# that make the card's legal move from there, captures (T13) included. Each case checks:
#   - the `illegal` fix text: for a capture half made (the capturing pawn lifted, the captured
#     one still standing), how to finish it: lift that pawn off its square, put it in its
#     camp (the sensors' names: GC1-GC4), set the capturing pawn down (docs/rules/tock.md);
#   - completing the move is `move` then `corrected`, not only putting pawns back;
#   - the game then stands at the move's position, and nothing more is said.
# Drives the tracker with sensor edges as the sense layer hands them (no simulator: a few
# hundred cases stay quick under MicroPython at the ESP32 heap).
from check import Rand
from tockpos import pos

from games.tock.rules import CELLS, COLOURS, TRACK, Card, parse_square, square_name
from games.tock.tracker import TockGame

# the sensors by name, one bit each: every square, then the camp slots (the board's own map,
# hardware/sensors.json, orders them otherwise: the tracker takes any order)
NAMES = [square_name(_s) for _s in range(CELLS)] + [c + "C" + k for c in COLOURS for k in "1234"]
BIT = {}  # square or camp-slot name -> sensor bit
for _i in range(len(NAMES)):
    BIT[NAMES[_i]] = _i
CARDS = ("AH", "2H", "3S", "5D", "6C", "8H", "9S", "10D", "QC", "KH", "4S", "7D", "JH")
STEP_MS = 50  # the sense layer's settled edges come between these looks


class Hands:
    """The physical table: which squares and camp slots hold a pawn, and a game told of
    every change as the sensors would tell it."""

    def __init__(self, game, p):
        self.game = game
        self.now = 0
        self.on = {}  # sensor name -> 1
        for s in range(CELLS):
            if p.cells[s]:
                self.on[square_name(s)] = 1
        for c in range(4):
            for k in range(p.camp(c) if c in p.colours() else 0):
                self.on["%sC%d" % (COLOURS[c], k + 1)] = 1
        for name in self.on:  # the board as it stands at power-up
            game.on_sensor(BIT[name], 1, 0)
        self.events = []
        game.emit = self.events.append
        game.step(0)

    def set(self, name, level):
        assert (name in self.on) != level, name
        if level:
            self.on[name] = 1
        else:
            del self.on[name]
        self.now += 20
        self.game.on_sensor(BIT[name], level, self.now)
        self.wait(40)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += STEP_MS
            self.game.step(self.now)

    def camp_slot(self, c, full):
        """A camp slot of colour c holding a pawn (full) or free."""
        for k in range(1, 5):
            name = "%sC%d" % (COLOURS[c], k)
            if (name in self.on) == full:
                return name
        raise AssertionError("no %s camp slot %s" % (COLOURS[c], "full" if full else "free"))

    def in_camp(self, c):
        return sum(1 for k in range(1, 5) if "%sC%d" % (COLOURS[c], k) in self.on)

    def said(self):
        out = [e["type"] for e in self.events]
        return out


def random_position(r, capture):
    """Red to play, a few pawns of each colour on the track; with `capture`, an opponent's
    pawn where a red pawn's forward card lands (so captures come often). Returns the
    position and that card's rank (None without)."""
    taken = []
    pawns = {"R": [], "G": [], "B": [], "Y": []}

    def put(c, s):
        taken.append(s)
        pawns[c].append(square_name(s))

    for c in "RGBY":
        for _ in range(r.below(3)):
            s = r.below(TRACK)
            if s not in taken and s % 18 != 17:  # no pawn on an 18: captures there are rare
                put(c, s)
    n = None
    if capture:
        s = r.below(TRACK)
        n = r.pick((2, 3, 5, 6, 7, 8, 9, 10, 12))
        t = (s + n) % TRACK
        if s not in taken and t not in taken and t % 18 != 17 and s % 18 != 17:
            put("R", s)
            put(r.pick("GBY"), t)
        else:
            n = None
    return pos(pawns), n


def shows(hands, moves):
    """Whether the sensors show the squares one of these moves leaves occupied."""
    for x in moves:
        for s in range(CELLS):
            if (square_name(s) in hands.on) != bool(x.after.cells[s]):
                break
        else:
            return True
    return False


def make_move(hands, p, m):
    """Hands make move m of position p from the board as it stands: captured pawns lifted
    and put in their camp, pawns put back on squares they should not have left, pawns taken
    off squares they should not be on, then every pawn the move brings set down."""
    after = m.after
    caught = [parse_square(n) for n in m.captures]
    for s in caught:
        if square_name(s) in hands.on:
            hands.set(square_name(s), 0)
        hands.set(hands.camp_slot(p.cells[s] - 1, False), 1)
    for c in p.colours():  # pawns coming out leave their camp
        while hands.in_camp(c) > after.camp(c):
            hands.set(hands.camp_slot(c, True), 0)
    for s in range(CELLS):  # off where the move leaves no pawn
        if square_name(s) in hands.on and not after.cells[s]:
            hands.set(square_name(s), 0)
    for s in range(CELLS):
        if after.cells[s] and square_name(s) not in hands.on:
            hands.set(square_name(s), 1)


def wrong(r, hands, p, m, moves):
    """Makes a wrong board: no legal move of the card leads to it. Returns its kind:
    "half-capture" (the capturing pawn lifted, the captured one still standing), "hold" (the
    moving pawn lifted and kept in hand), "astray" (set down on a wrong square)."""
    start = [t for c, f, t in m.parts if f is not None and p.cells[t]]
    kind = r.pick(("hold", "astray"))
    if m.captures and len(m.parts) == 1 and r.below(3):
        kind = "half-capture"
    c, f, t = m.parts[0]
    if f is None:
        hands.set(hands.camp_slot(c, True), 0)
    else:
        hands.set(square_name(f), 0)
    if kind == "astray":
        free = [
            s
            for s in range(TRACK)
            if square_name(s) not in hands.on and s not in (t, f) and s not in start
        ]
        for _ in range(8):
            s = r.pick(free)
            hands.set(square_name(s), 1)
            if not shows(hands, moves):
                return kind
            hands.set(square_name(s), 0)
        kind = "hold"
    if kind != "half-capture" and shows(hands, moves):
        return None  # lifting alone leaves a legal move's squares (another capture's): skip
    return kind


def play_case(r):
    capture = r.below(3) > 0
    p, n = random_position(r, capture)
    cards = [c for c in CARDS if p.has_move(c)]
    if n:
        c = ("Q" if n == 12 else str(n)) + r.pick("SHDC")
        if p.has_move(c):
            cards = [c]
    if not cards:
        return None
    card = Card(r.pick(cards))
    moves = p.legal_moves(card)
    caps = [m for m in moves if m.captures]
    m = r.pick(caps) if caps and capture else r.pick(moves)
    if card.rank == "J":
        return None  # a swap leaves occupancy as it was: no wrong board to hold
    game = TockGame(lambda ev: None, NAMES, {"players": 4, "position": p.to_dict()})
    hands = Hands(game, p)
    game.on_card(str(card), "uid", hands.now)
    hands.wait(200)
    assert hands.said() == ["card"], hands.events
    kind = wrong(r, hands, p, m, moves)
    if kind is None:
        return None
    hands.wait(game.illegal_ms + 400)
    ill = [e for e in hands.events if e["type"] == "illegal"]
    assert hands.said() == ["card", "illegal"], (kind, m.describe(), hands.events)
    fix = ill[0]["fix"]
    assert fix, ill
    if kind == "half-capture":
        t = parse_square(m.captures[0])
        v = COLOURS[p.cells[t] - 1]
        assert fix.startswith("to capture with %s (T13): " % card), fix
        assert (
            "lift the %s pawn off %s and put it in %s's camp (%sC1-%sC4)"
            % (
                v,
                square_name(t),
                v,
                v,
                v,
            )
            in fix
        ), fix
        assert "down on %s" % square_name(m.parts[0][2]) in fix, fix
    n = len(hands.events)
    make_move(hands, p, m)
    hands.wait(400)
    then = hands.said()[n:]
    if "win" in then:
        then.remove("win")
    assert then == ["move", "corrected"], (kind, m.describe(), fix, hands.events[n:])
    said = [e for e in hands.events[n:] if e["type"] in ("move", "corrected")]
    assert said[0]["seat"] == said[1]["seat"], said  # the mover's board was made right
    assert game.pos.same_placement(m.after), (m.describe(), game.pos)
    hands.wait(game.illegal_ms + 400)
    assert hands.said()[n:].count("illegal") == 0, hands.events[n:]
    return kind, bool(m.captures), card.rank == "7"


def test_T13_T17_wrong_board_then_the_right_move_is_move_then_corrected():
    r = Rand(1717)
    seen = {}
    for _ in range(300):
        out = play_case(r)
        if out:
            seen[out] = seen.get(out, 0) + 1

    # the generator reached every kind, captures among them, 7s too (else it tests too little)
    def count(kind=None, capture=None, seven=None):
        return sum(
            n
            for (k, c, s), n in seen.items()
            if kind in (None, k) and capture in (None, c) and seven in (None, s)
        )

    assert count("half-capture") >= 50, seen
    assert count("half-capture", seven=True) >= 2, seen
    assert count(capture=False) >= 50, seen
    assert count("astray", capture=True) + count("hold", capture=True) >= 10, seen


def test_T13_half_capture_fix_names_the_square_and_the_camp():
    # the issue's own case: a red 5 from R3 onto G's pawn on R8, the red pawn lifted and G's
    # pawn left standing
    p = pos({"R": ["R3"], "G": ["R8", "G2"]})
    game = TockGame(lambda ev: None, NAMES, {"players": 4, "position": p.to_dict()})
    hands = Hands(game, p)
    game.on_card("5H", "uid", hands.now)
    hands.set("R3", 0)
    hands.wait(game.illegal_ms + 400)
    (ill,) = [e for e in hands.events if e["type"] == "illegal"]
    assert ill["fix"] == (
        "to capture with 5H (T13): lift the G pawn off R8 and put it in G's camp (GC1-GC4),"
        " then set the R pawn from R3 down on R8; or, to take the move back: put a pawn on R3 (R)"
    ), ill["fix"]
    hands.set("R8", 0)
    hands.set("GC3", 1)
    hands.set("R8", 1)
    hands.wait(400)
    assert hands.said() == ["card", "illegal", "move", "corrected"], hands.events


def test_T8_T13_exit_capture_half_made_is_explained():
    # an ace brings red out onto R18, where G stands: the red pawn lifted from its camp
    p = pos({"G": ["R18"]})
    game = TockGame(lambda ev: None, NAMES, {"players": 4, "position": p.to_dict()})
    hands = Hands(game, p)
    game.on_card("AH", "uid", hands.now)
    hands.set("RC1", 0)
    hands.wait(game.illegal_ms + 400)
    (ill,) = [e for e in hands.events if e["type"] == "illegal"]
    assert ill["fix"].startswith(
        "to capture with AH (T13): lift the G pawn off R18 and put it in G's camp (GC1-GC4),"
        " then set the R pawn from camp down on R18"
    ), ill["fix"]
    hands.set("R18", 0)
    hands.set(hands.camp_slot(1, False), 1)
    hands.set("R18", 1)
    hands.wait(400)
    assert hands.said() == ["card", "illegal", "move", "corrected"], hands.events


def test_T17_pawns_put_back_then_the_move_says_corrected_once():
    p = pos({"R": ["R3"]})
    game = TockGame(lambda ev: None, NAMES, {"players": 4, "position": p.to_dict()})
    hands = Hands(game, p)
    game.on_card("5H", "uid", hands.now)
    hands.set("R3", 0)
    hands.set("R9", 1)
    hands.wait(game.illegal_ms + 400)
    hands.set("R9", 0)
    hands.set("R3", 1)
    hands.wait(400)
    hands.set("R3", 0)
    hands.set("R8", 1)
    hands.wait(game.illegal_ms + 400)
    assert hands.said() == ["card", "illegal", "corrected", "move"], hands.events


def test_T11_T13_seven_half_capture_fix_names_the_square_and_the_camp():
    # a 7 from R1 onto G's pawn on R8, the red pawn lifted and G's pawn left standing
    p = pos({"R": ["R1"], "G": ["R8", "G2"]})
    game = TockGame(lambda ev: None, NAMES, {"players": 4, "position": p.to_dict()})
    hands = Hands(game, p)
    game.on_card("7S", "uid", hands.now)
    hands.set("R1", 0)
    hands.wait(game.illegal_ms + 400)
    (ill,) = [e for e in hands.events if e["type"] == "illegal"]
    assert ill["fix"].startswith(
        "to capture with 7S (T13): lift the G pawn off R8 and put it in G's camp (GC1-GC4),"
        " then set the R pawn from R1 down on R8"
    ), ill["fix"]
    hands.set("R8", 0)
    hands.set("GC3", 1)
    hands.set("R8", 1)
    hands.wait(400)
    assert hands.said() == ["card", "illegal", "move", "corrected"], hands.events
