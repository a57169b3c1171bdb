# Tock across the board's tick counter wrap (issue 34; wrapkit.py says how): moves half made
# when the counter wraps, the settle and the illegal-board time running across it, a move
# made while the power was off, the selftest's scan rate.
from wrapkit import across, counted, position

TOCK = "table tock players=4 rules=classic\n"


def test_tock_moves_half_made_settle_and_the_illegal_time_across_the_wrap():
    # a capture (T13) with a glitch on the way, its captured pawn in hand until `illegal`
    # is said, then put in camp (`corrected`); a move stopped short long enough to be
    # `illegal`, then finished (`move`, `corrected`); a selftest and its scan rate
    p = {"p.json": position({"R": ["R3"], "G": ["R8", "G2"]})}
    said = {}
    rates = []
    look = counted(said)

    def seen(ev):
        look(ev)
        if ev["type"] == "selftest":
            rates.append(ev["scan_hz"])

    across(
        "tock",
        TOCK + "position p.json\ncard 5H\nlift R8\nglitch R5 10\nlift R3\nplace R8\nwait 2000\n"
        "place GC3\nwait 400\ncard 3S\nlift G2\nplace G4\nwait 1800\nlift G4\nplace G5\n"
        "wait 600\nsend selftest\nwait 900\n",
        1,
        p,
        look=seen,
    )
    assert said["illegal"] == said["corrected"] == said["move"] == 2
    assert rates == [200]  # (199 while power-up blocked on the reader: no more, issue 31)


def test_tock_a_move_made_while_the_power_was_off_across_the_wrap():
    # a pawn moved faster than a scan, then the power cut: the board resumes the game and
    # finds the move (its `settle` a duration, whatever the counter reads)
    said = {}
    across(
        "reset",
        TOCK + "position p.json\ncard 5H\npace 0\nmove R3 R8\nreset\npace 150\nwait 1000\n",
        2,
        {"p.json": position({"R": ["R3"]})},
        look=counted(said),
    )
    assert said["move"] == said["resumed"] == 1


def test_tock_a_capture_made_while_the_power_was_off_across_the_wrap():
    # the captured pawn lifted (seen), the capturing one moved faster than a scan, then the
    # power cut: the board resumes and finds the capture, the captured pawn still in hand:
    # `illegal` once the board has been wrong 1.5 s, then `corrected` when it goes to camp
    said = {}
    across(
        "capture",
        TOCK + "position p.json\ncard 5H\nlift R8\nwait 300\npace 0\nmove R3 R8\nreset\n"
        "pace 150\nwait 2500\nplace GC3\nwait 400\n",
        3,
        {"p.json": position({"R": ["R3"], "G": ["R8", "G2"]})},
        look=counted(said),
    )
    assert said["move"] == said["illegal"] == said["corrected"] == 1
