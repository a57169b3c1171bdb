# The sensors' supply watched (issue 31): with the adapter unplugged or the fuse tripped every
# open-drain sensor output floats HIGH (every pawn lifted, no ball in a goal) while the chain
# still reads right. The table reads the rail through its divider (hal/rail.py, the ADC model
# sim/chips/rail.py), says `error` when it goes down, takes no board read until it is back,
# then says `resumed`. Table scripts cut and restore it: `rail off`, `rail on`, `rail MV`.
from readers import rng
from simcheck import kinds, of, position, run

TOCK = "table tock players=4 rules=classic\n"
WEYKICK = "table weykick mode=first-to:10 variant=football\n"


def rail_events(evs):
    return [e["type"] for e in evs if e.get("what") == "sensor-rail"]


def test_rail_down_with_pawns_on_the_board_is_said_and_lifts_none():
    # 16 pawns in camp: an unpowered board reads every one lifted
    evs = run(TOCK + "wait 200\nrail off\nwait 2000\nsend selftest\nrail on\nwait 600\n")
    assert rail_events(evs) == ["error", "resumed"]
    assert of(evs, "illegal") == [] and of(evs, "move") == []
    (report,) = of(evs, "selftest")
    assert report["sensor_rail"] == "down" and report["sensor_rail_mv"] < 4000
    assert "sensors_on" not in report and "on_unexpected" not in report
    (resumed,) = of(evs, "resumed")
    assert resumed["position"]["pawns"]["R"] == ["camp"] * 4


def test_rail_down_mid_move_in_tock_the_move_is_read_once_it_is_back():
    # the pawn lifted with the rail up, set down while it is down: one move, once back
    script = (
        TOCK + "card AS\nlift RC1\nrail off\nwait 300\nplace R18\nwait 500\nrail on\nwait 600\n"
    )
    evs = run(script)
    assert kinds(evs) == ["card", "error", "resumed", "move"]
    (m,) = of(evs, "move")
    assert m["steps"] == [["camp", "R18"]]
    assert of(evs, "illegal") == []


def test_rail_cut_at_random_points_of_tock_moves_loses_no_move():
    # seeded: each of a run of moves from a position, the rail cut before, mid-move or after
    # the pawn's landing, for a random time; every move is read once, none made up
    r0 = rng(31)
    import gc

    evs = None
    for trial in range(4):
        evs = None  # the last trial's events go first (the chip's heap)
        gc.collect()
        p = {"p.json": position({"R": ["R3"], "G": ["G5"], "B": ["B7"], "Y": ["Y9"]})}
        lines = ["position p.json"]
        at = {"R": 3, "G": 5, "B": 7, "Y": 9}
        expected = []
        for seat in "RGBY":
            lines.append("card 5" + "HDCS"["RGBY".index(seat)])  # a card each: one deck
            src = "%s%d" % (seat, at[seat])
            dst = "%s%d" % (seat, at[seat] + 5)
            cut = r0.below(3)
            down = "rail off\nwait %d" % (50 + r0.below(600))
            back = "rail on\nwait %d" % (150 + r0.below(300))
            steps = ["lift " + src, "place " + dst, "wait 400"]
            steps.insert(cut, down)
            lines += steps + [back, "wait 200"]
            expected.append([[src, dst]])
            at[seat] += 5
        evs = run(TOCK + "\n".join(lines) + "\n", p)
        assert [m["steps"] for m in of(evs, "move")] == expected, (trial, kinds(evs))
        assert of(evs, "illegal") == [], trial
        assert rail_events(evs) == ["error", "resumed"] * 4, trial


def test_rail_down_mid_goal_in_weykick_counts_the_goal_once():
    # the ball in goal A, the rail cut while it lies there (the sensor floats: no ball), back
    evs = run(
        WEYKICK + "ball A\nwait 300\nrail off\nwait 800\nrail on\nwait 500\nclear A\nwait 600\n"
    )
    assert [g["goal"] for g in of(evs, "goal")] == ["A"]
    assert rail_events(evs) == ["error", "resumed"]
    assert len(of(evs, "cleared")) == 1
    # the ball taken out while the sensors are unpowered: the goal stands, one clearing
    evs = run(
        WEYKICK + "ball A\nwait 300\nrail off\nwait 200\nclear A\nwait 300\nrail on\n"
        "wait 600\nball B\nwait 300\nclear B\nwait 600\n"
    )
    assert [g["goal"] for g in of(evs, "goal")] == ["A", "B"]
    assert len(of(evs, "cleared")) == 2


def test_a_sagging_rail_is_down_under_min_volts_and_back_only_with_margin():
    # pin map: min_volts 4.0; back at 4.2 V held 100 ms (hal/rail.py)
    evs = run(
        TOCK + "pace 10\nwait 200\nrail 4100\nwait 300\nrail 3900\nwait 300\nrail 4100\nwait 300\n"
        "send selftest\nrail 4300\nwait 50\nrail 3950\nwait 50\nrail 4300\nwait 400\n"
    )
    assert rail_events(evs) == ["error", "resumed"]
    (report,) = of(evs, "selftest")
    assert report["sensor_rail"] == "down" and report["sensor_rail_downs"] == 1  # 4.1 V: not back
    assert of(evs, "illegal") == []


def test_the_rail_line_is_checked():
    from sim.script import ScriptError, parse

    for bad, why in (
        ("rail", "takes 1 argument"),
        ("rail up", "rail takes off, on"),
        ("rail 9000", "(0-6000)"),
    ):
        try:
            parse(TOCK + bad + "\n")
        except ScriptError as e:
            assert e.line == 2 and why in e.why, e.why
        else:
            raise AssertionError(bad)
    assert parse(TOCK + "rail 3900\nrail on\n")[1] == [(2, "rail", [3900]), (3, "rail", ["on"])]
