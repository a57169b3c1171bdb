# An exception in the table loop (a bug in a game's handler) is an `error` event and the loop
# goes on: the next card, move and command still work, and the watchdog keeps being fed (it is
# for hangs, not bugs). A bug hit on every scan is reported once a second, not 200 times.
from simcheck import of, run

from games.tock.tracker import TockGame

HEAD = "table tock players=4 rules=classic\n"


def patched(cls, name, fn, script):
    real = getattr(cls, name)
    setattr(cls, name, fn)
    try:
        return run(script)
    finally:
        setattr(cls, name, real)


def test_an_exception_in_a_games_card_handler_is_reported_and_play_goes_on():
    real = TockGame.on_card

    def on_card(self, text, uid, now, pile=False):
        if text == "7H":
            raise KeyError("a bug")
        real(self, text, uid, now, pile)

    evs = patched(
        TockGame,
        "on_card",
        on_card,
        HEAD + "card 5H\ncard 7H\ncard 6H\ncard AS\nlift BC1\nplace B18\nwait 500\n",
    )
    (err,) = of(evs, "error")
    assert err["what"] == "firmware" and "KeyError" in err["why"] and "a bug" in err["why"]
    assert [e["card"] for e in of(evs, "card")] == ["5H", "6H", "AS"]
    assert len(of(evs, "move")) == 1  # and the pawns still referee


def test_a_bug_hit_on_every_scan_is_reported_once_a_second():
    def step(self, now, settled=True):
        raise ValueError("every scan")

    evs = patched(TockGame, "step", step, HEAD + "wait 3000\n")
    errs = of(evs, "error")
    # 3 s of scans (and the simulator's 2 s at the end), 200 a second: a handful of reports,
    # each counting what it did not repeat
    assert 4 <= len(errs) <= 7, len(errs)
    assert sum(e.get("repeats", 0) for e in errs) + len(errs) >= 900


def test_an_exception_in_a_command_is_a_refusal_and_the_table_goes_on():
    def command(self, cmd):
        raise TypeError("bad handler")

    evs = patched(TockGame, "command", command, HEAD + "send undo\ncard 5H\n")
    (ans,) = [e for e in of(evs, "answer")]
    assert not ans["ok"] and "TypeError" in ans["why"]
    assert of(evs, "card")[0]["card"] == "5H"


def test_the_watchdog_is_fed_when_a_step_fails():
    from link.link import Link
    from link.ring import Ring
    from sim import VirtualClock
    from table import Table

    class Dog:
        fed = 0

        def feed(self):
            self.fed += 1

    class Broken:
        def read(self):
            raise OSError("console gone")

    frames = []
    dog = Dog()
    link = Link(frames.append, "b", ring=Ring(512, 8))  # (not a second 16 KB ring: heap)
    table = Table(Broken(), VirtualClock(), link, None, None, None, dog)
    for _ in range(10):
        table.step()
    assert dog.fed == 10 and table.failures == 10 and len(frames) == 1
