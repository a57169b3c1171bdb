# Tock's cards on the pile at power-up (adversarial round 4: F0, F0b, F0e, F1): see strays.py.
from strays import FRENCH, TRIALS, differential, enrol_noise, play, shuffled

from sim.chips import Rng

# --- Tock: 2 players, every pawn in camp between turns, so a card other than an A or a K is
# discarded (T17) and the turn passes; an A or a K exits a pawn, and is undone ----------------


def _tock_session(rng):
    plain = shuffled(rng, FRENCH)
    exits = [c for c in plain if c[0] in "AK"]
    plain = [c for c in plain if c[0] not in "AK"]
    turn = ["R"]
    lines = ["table tock players=2 rules=classic"]

    def exit_undone(refused=False):
        c = exits.pop()
        t = turn[0]
        lines.extend(["card " + c, "wait 200"])
        if refused:  # a second card, refused (F0e)
            lines.extend(["card " + plain.pop(), "wait 200"])
        lines.extend(["move %sC1 %s18" % (t, t), "wait 600", "send undo"])
        lines.extend(["move %s18 %sC1" % (t, t), "wait 2500"])  # put back: F0's second form

    for _ in range(3 + rng.below(8)):
        k = rng.below(10)
        if k < 4:
            lines.extend(["card " + plain.pop(), "wait 200"])
            turn[0] = "G" if turn[0] == "R" else "R"
        elif k < 6:
            exit_undone(refused=k == 5)
        elif k == 6:
            enrol_noise(rng, plain, lines)
        elif k == 7:
            lines.extend(["send new tock players=2 rules=classic", "wait 300"])  # F0b
            if rng.below(2):
                lines.append("gather")  # the deck gathered for the new game (or not yet)
            turn[0] = "R"
        else:
            lines.extend(["card " + plain.pop(), "wait 200"])
            turn[0] = "G" if turn[0] == "R" else "R"
    outage = [plain.pop() for _ in range(rng.below(3))]
    return lines, outage, ["card " + plain.pop(), "wait 300"]


def test_tock_cards_on_the_pile_at_power_up():
    rng = Rng(1501)
    played = 0
    for trial in range(TRIALS):
        lines, outage, suffix = _tock_session(rng)
        played += differential(lines, outage, suffix, "tock %d" % trial)
    assert played >= TRIALS  # the suffix's card at least, each time


def test_undo_then_a_cut_before_the_pawn_is_put_back():
    # F0's first form: the card taken back lies on the pile; after the cut no card is played
    # and the undone move is not made again: the pawn still out is put back, then R plays
    lines = ["table tock players=2 rules=classic", "card AS", "move RC1 R18", "wait 600"]
    lines += ["send undo", "wait 300", "send snapshot", "wait 300", "reset", "wait 1500"]
    lines += ["move R18 RC1", "wait 2500", "card 5D", "wait 300", "send snapshot", "wait 300"]
    after, snap = play(lines, (), "undo")
    assert [(e["card"], e["seat"]) for e in after if e["type"] == "card"] == [("5D", "R")]
    assert [e for e in after if e["type"] == "move"] == [], after
    assert snap["card"] is None and snap["position"]["turn"] == "G", snap
