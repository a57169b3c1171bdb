# The table's lights, displays and buzzer (issue 29) at the simulated table, read off the chip
# models (sim/look.py): the squares to put right blinking, the hints setting, the current
# cap, a display or the LED line failing, the tones, the settings kept on flash.
from check import Rand
from lightcheck import TOCK, names_lit, settle, table, white
from simcheck import of, position

from sim import look

_PERIOD = 400  # outputs.py's blink half period


def red(rgb):
    return rgb[0] > 0 and not rgb[1] and not rgb[2]


def blinking(sim):
    """The LEDs that change over a blink: two looks a half period apart."""
    settle(sim)
    chip = sim.physical.led_chip
    a = bytes(chip.frame)
    sim.advance(_PERIOD + 10)
    b = bytes(chip.frame)
    names = sim.physical.names
    return sorted(
        names[i] for i in range(len(names)) if a[3 * i : 3 * i + 3] != b[3 * i : 3 * i + 3]
    )


def fix_squares(fix):
    """The squares a fix names, as the players read them: every square or slot named, and
    a camp named as a whole its four slots."""
    out = set()
    for clause in fix.split(";"):
        words = clause.replace(",", " ").replace("(", " ").replace(")", " ").split()
        for w in words:
            for part in w.replace("'s", "").split("-"):
                if (
                    len(part) >= 2
                    and part[0] in "RGBY"
                    and part[1:].replace("H", "").replace("C", "").isdigit()
                ):
                    out.add(part)
        if clause.strip().endswith("back in camp") or clause.strip().endswith("too many"):
            colour = [w for w in words if w in ("R", "G", "B", "Y")][0]
            out.update(colour + "C%d" % k for k in range(1, 5))
    return sorted(out)


def _wrong_boards(trials):
    # seeded: a pawn of the colour to play moved to a wrong square (or a second pawn
    # touched): the `illegal` said names squares; exactly those blink red until corrected
    done = 0
    sim = out = None
    for trial in trials:
        sim = out = None  # (the last trial's table goes before the next is made: the heap)
        r = Rand(29 + trial)
        start = 1 + r.below(10)
        p = {"p.json": position({"R": ["R%d" % start]})}
        wrong = "R%d" % (start + 2 + r.below(5))  # not the card's 1 or 11 (an ace)
        script = "table tock players=4 rules=classic\nposition p.json\ncard AS\n"
        script += "lift R%d\nplace %s\nwait 2500\n" % (start, wrong)
        sim, out = table(script, p)
        # the `illegal` said (its fix is the game's: the events are decoded at the end, when
        # the table has gone: at the chip's heap there is no 1 KB for a decoder beside it)
        fix = sim.game.fix
        assert sim.game.owed and fix, trial
        assert blinking(sim) == fix_squares(fix), (fix, trial)
        # put right: nothing blinks any more
        sim.act(90, "lift", [wrong])
        sim.act(91, "place", ["R%d" % start])
        sim.advance(600)
        assert blinking(sim) == [], trial
        sim = None
        (ill,) = of(out.events(), "illegal")
        assert ill["fix"] == fix, (ill, fix)
        done += 1
    assert done == len(trials)


# (a table a test, as a board plays one a power-up: the chip's run gives each test a process
# of its own at 111,936 B; three in one process passed or failed as 32 bytes more or less of
# the tests' own bytecode moved where the next table's objects fell)
def test_a_wrong_board_blinks_the_squares_its_fix_names():
    _wrong_boards((0,))


def test_a_wrong_board_blinks_the_squares_its_fix_names_1():
    _wrong_boards((1,))


def test_a_wrong_board_blinks_the_squares_its_fix_names_2():
    _wrong_boards((2,))


def test_a_wrong_board_blinks_the_squares_its_fix_names_3():
    _wrong_boards((3,))


def test_a_wrong_board_blinks_the_squares_its_fix_names_4():
    _wrong_boards((4,))


def test_a_wrong_board_blinks_the_squares_its_fix_names_5():
    _wrong_boards((5,))


def test_hints_follow_the_setting_and_outlive_a_reset():
    p = {"p.json": position({"R": ["R3", "R9"]})}
    base = "table tock players=4 rules=classic\nposition p.json\n"
    # squares (the default): the pawns that can move, then where a lifted one may go
    sim, _ = table(base + "card 5H\nwait 300\n", p)
    settle(sim)
    assert names_lit(sim, white) == ["R3", "R9"]
    sim.act(90, "lift", ["R3"])
    sim.advance(300)  # (the sensor's sampling and the debounce)
    settle(sim)
    assert names_lit(sim, white) == ["R8"]
    # pawns only: a lifted pawn shows nothing more; off: nothing at all, after a reset too
    sim = None
    sim, _ = table(base + "send feedback hints=pawns\ncard 5H\nlift R3\nwait 300\n", p)
    settle(sim)
    assert names_lit(sim, white) == ["R9"]  # (R3 is in the air)
    sim = None
    sim, out = table(base + "send feedback hints=off\nreset\nwait 300\ncard 5H\nwait 300\n", p)
    settle(sim)
    assert names_lit(sim, white) == []
    assert sim.table.outputs.settings["hints"] == "off"


def test_the_chain_never_draws_more_than_its_cap():
    # seeded shows: random colours on every LED at random brightness; the chain's current
    # (its model's, from what it latched) stays under the pin map's cap, and a frame under
    # the cap is not dimmed below the brightness asked for
    from games.base import Game

    class Lit(Game):
        codes = b""

        def show(self, out, now):
            out.lights[:] = self.codes
            return 0

    sim, _ = table(TOCK + "wait 100\n")
    ph = sim.physical
    cap = ph.leds_map["ma_cap"]
    out = sim.table.outputs
    r = Rand(7)
    n = ph.led_chip.n
    for trial in range(40):
        game = Lit(lambda ev: None)
        lit = r.below(n + 1)
        codes = bytearray(n)
        for i in range(lit):
            codes[r.below(n)] = 1 + r.below(7)
        game.codes = bytes(codes)
        level = r.below(101)
        out.command({"cmd": "feedback", "brightness": level})
        for _ in range(60):  # the game asked, its part, the frame made and written, pages
            out.step(sim.clock.ticks_ms(), game)
            if out.idle():
                break
        assert out.idle(), trial
        ma = ph.led_chip.current()
        assert ma <= cap, (trial, ma, level)
        full = sum(ph.led_chip.frame)
        # what the codes ask at that brightness, uncapped: the frame is that, or capped
        from outputs import _RGB

        asked = sum(_RGB[3 * c + k] * (level * 255 // 100) // 255 for c in codes for k in range(3))
        assert full == asked or ma > cap - 60, (trial, full, asked, ma)


def test_a_display_that_does_not_answer_is_said_once_and_the_game_goes_on():
    sim, out = table(TOCK + "wait 100\n")
    ph = sim.physical
    gone = ph.i2c.devices.pop(61)  # display B unplugged
    sim.reset()
    sim.advance(300)
    for card, sq in (("AS", "RC1"),):
        sim.act(90, "card", [card])
        sim.advance(300)
        sim.act(91, "lift", [sq])
        sim.act(92, "place", ["R18"])
        sim.advance(12000)  # past the display's retry
    evs = out.events()
    said = [e for e in evs if e.get("what") == "display"]
    assert len(said) == 1 and "display B" in said[0]["why"] and "0x3d" in said[0]["why"]
    assert of(evs, "move")  # the game went on
    assert look.screen(ph.displays[0])[1][0] == "GREEN to play"
    # plugged back: found at its next retry, drawn again
    ph.i2c.devices[61] = gone
    sim.advance(12000)
    settle(sim)
    assert look.screen(gone)[1][0] == "GREEN to play"
    assert len([e for e in out.events() if e.get("what") == "display"]) == 1


def test_a_stuck_bus_and_a_stuck_led_line_stop_no_game():
    sim, out = table(TOCK + "wait 100\n")
    ph = sim.physical
    ph.i2c.stuck = True
    ph.led_chip.stuck = True
    sim.act(90, "card", ["AS"])
    sim.advance(300)
    sim.act(91, "lift", ["RC1"])
    sim.act(92, "place", ["R18"])
    sim.advance(1000)
    ph.i2c.stuck = ph.led_chip.stuck = False
    sim.advance(12000)
    settle(sim)
    assert look.screen(ph.displays[0])[1][0] == "GREEN to play"
    assert names_lit(sim, lambda rgb: rgb[1] and not rgb[0] and not rgb[2]) == [
        "GH1",
        "GH2",
        "GH3",
        "GH4",
    ]
    sim = ph = None  # (the table goes before its events are decoded: the chip's heap)
    evs = out.events()
    assert of(evs, "move")  # the game went on
    # each display said once (the bus timed out for both); the LED line cannot be seen
    said = [e["why"] for e in evs if e.get("what") == "display"]
    assert len(said) == 2 and all("116" in w or "ETIMEDOUT" in w for w in said), said


def test_tones_for_a_card_a_refusal_and_silence_when_asked():
    sim, out = table(TOCK + "card AS\nwait 300\ncard 2S\nwait 600\n")
    tones = [(hz, ms) for _, hz, ms in sim.physical.buzzer_pwm.tones]
    assert (2000, 50) in tones  # the card read
    assert (400, 250) in tones  # the second card refused (T7)
    sim = out = None
    sim, out = table(TOCK + "send feedback sound=off\ncard AS\nwait 300\ncard 2S\nwait 600\n")
    assert sim.physical.buzzer_pwm.tones == []


def test_the_card_spot_shows_green_then_red_then_nothing():
    sim, out = table(TOCK + "wait 100\n")
    spot = sim.physical.leds_map["spot"]
    chip = sim.physical.led_chip
    sim.act(89, "card", ["AS"])
    sim.advance(100)
    settle(sim)
    r, g, b = chip.rgb(spot)
    assert g and not r
    sim.act(90, "card", ["2S"])  # a second card: refused (T7)
    sim.advance(100)
    settle(sim)
    r, g, b = chip.rgb(spot)
    assert r and not g
    sim.advance(2000)
    settle(sim)
    assert chip.rgb(spot) == (0, 0, 0)
