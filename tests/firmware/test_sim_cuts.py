# Power cuts at every point around every card laid (issue 15): between the card landing on
# the pile, the reader reading it, its event and the game going to flash, and the event going
# on the wire; and at seeded random points, two cuts in a row among them (the second while
# the board starts again). Every card play reaches the host exactly once and in order, and
# the game goes on as it would have without the cuts. Hold'em (a draw for the button, a hand
# to showdown, the next hand's first cards) and Pocha (three hands, tricks and bids), through
# the whole simulated table (tests/firmware/cuts.py). Runs under pytest and MicroPython.
import gc

from check import Rand
from cuts import play

HOLDEM = (
    "table holdem seats=2 stacks=60,100 blinds=1/2 button=1 structure=pot-limit\n"
    "pace 100\n"
    "send draw\n"
    "card QS\n"
    "card 10C\n"
    "gather\n"
    "send hand\n"
    "send fold 1\n"
    "gather\n"
    "wait 300\n"
    "send hand\n"
    "send call 2\n"
    "send check 1\n"
    "card 5S\n"
    "card 4S\n"
    "card 8S\n"
    "send check 1\n"
    "send bet 2 2\n"
    "send raise 1 8\n"
    "send call 2\n"
    "card 2C\n"
    "send check 1\n"
    "send check 2\n"
    "card 6H\n"
    "send check 1\n"
    "send check 2\n"
    "card AC\n"
    "card 10D\n"
    "card 5D\n"
    "card 4H\n"
    "gather\n"
    "wait 300\n"
    "send hand\n"
    "send call 1\n"
    "send raise 2 4\n"
    "send call 1\n"
    "card 9S\n"
    "card 6H\n"
    "card 9H\n"
)
POCHA = (
    "table pocha players=3 deck=40 schedule=short dealer=1\n"
    "pace 150\n"
    "card 6E\n"
    "send bid 2 1\n"
    "send bid 3 1\n"
    "send bid 1 1\n"
    "card 7C\n"
    "card 4C\n"
    "card 7O\n"
    "gather\n"
    "wait 1000\n"
    "card 4B\n"
    "send bid 3 0\n"
    "send bid 1 1\n"
    "send bid 2 2\n"
    "card 5O\n"
    "card 3B\n"
    "card 6E\n"
    "card 3E\n"
    "card 5B\n"
    "card 11E\n"
    "gather\n"
    "wait 1000\n"
    "card 10O\n"
    "send bid 1 1\n"
    "send bid 2 3\n"
    "send bid 3 3\n"
    "card 7E\n"
    "card 7O\n"
    "card 6O\n"
    "card 10C\n"
    "card 7C\n"
)
# the plays compared (as `plateau resets` compares them): the fields that say what was played
HOLDEM_PLAYS = {
    "card": ("card", "seat", "board", "hole", "draw"),
    "button": ("seat",),
    "hand_start": ("button", "stacks"),
    "action": ("seat", "action", "bet", "stack", "to_act", "street"),
    "hand": ("seat", "category", "best"),
    "hand_end": ("stacks",),
}
POCHA_PLAYS = {
    "hand_start": ("hand", "cards", "dealer"),
    "trump": ("card", "suit", "bidder"),
    "bid": ("seat", "bid"),
    "card": ("card", "seat"),
    "trick": ("number", "cards", "winner"),
    "hand_end": ("hand", "taken", "scores", "totals"),
}


def lines_of(text, verb):
    """The script lines (1-based) that start with `verb`."""
    return [i + 1 for i, line in enumerate(text.split("\n")) if line.split(" ")[0] == verb]


# After a card line, its points run: the world's record (1), passes of the loop until the
# reader reads it (about 13), then its event and the game to flash (each write, the rename)
# and on the wire; each k below cuts CUTS cards of the script at that point.
AFTER_CARD = (1, 12, 14, 15, 16, 18, 20, 21, 22, 23, 24, 26)
CUTS = 6
# A cut here leaves the simulated hardware and the host's log on the heap while a new
# firmware starts beside them; at an ESP32's heap (the 32-bit build's run, 111,936 B) the
# whole simulated Pocha or Hold'em table does not restart in what is left. These run on
# CPython and on the 64-bit build (320 KB); `plateau resets` kills real processes.
ROOM = not hasattr(gc, "mem_free") or gc.mem_free() > 200000


def check_cuts(text, kinds, rng, random_runs=5, laid=("card",)):
    """`laid`: the verbs of the lines that lay a card, around which the cuts land (the card
    spot's `leave`, `stack` and `pair` too: test_sim_spot_cuts)."""
    if not ROOM:
        print("test_sim_cuts: skipped at this heap (%d B free): see ROOM" % gc.mem_free())
        return
    ref, cuts = play(text, kinds)
    assert cuts == 0 and ref, ref
    cards = []
    for verb in laid:
        cards += lines_of(text, verb)
    actions = cards + lines_of(text, "send") + lines_of(text, "gather")
    runs = []
    for k in AFTER_CARD:  # six cards a run, seeded (each cut costs the heap of a restart)
        picked = []
        while len(picked) < min(CUTS, len(cards)):
            line = rng.pick(cards)
            if line not in picked:
                picked.append(line)
        runs.append(([(line, k) for line in picked], []))
    for _ in range(random_runs):  # anywhere, and some restarts cut again as the board starts
        at = [(rng.pick(actions), rng.int(1, 40)) for _ in range(4)]
        runs.append((at, [rng.pick((1, 2, 5, 9, 20, 60, 10000)) for _ in range(4)]))
    made = 0
    for at, again in runs:
        got, cuts = play(text, kinds, at, again)
        made += cuts
        if got != ref:
            i = 0
            while i < len(got) and i < len(ref) and got[i] == ref[i]:
                i += 1
            raise AssertionError(
                "cut at %r, again %r: play %d: %r where %r"
                % (at, again, i, got[i : i + 2], ref[i : i + 2])
            )
    assert made >= len(runs), made  # the cuts did land


def test_holdem_card_plays_survive_cuts_at_every_point_H8_H9():
    check_cuts(HOLDEM, HOLDEM_PLAYS, Rand(1501))


def test_pocha_card_plays_survive_cuts_at_every_point_K9():
    check_cuts(POCHA, POCHA_PLAYS, Rand(1502))
