# A game switched to while the table runs takes the board as it stands (ADV5-2). A module of
# its own: under MicroPython each test module is a process with a fresh heap, and the other
# games' code this test loads left too little of it for test_sim_tock's tests after it.
from simcheck import of, run

HEAD = "table tock players=4 rules=classic\n"


def test_tock_after_other_games_takes_the_board_as_it_stands():
    # ADV5-2: Tock -> Weykick -> Tock on one table: the new Tock game learnt the board from
    # sensor edges only, saw none (the pawns never moved) and asked for every pawn back in
    # camp. Seeded detours through another game (a reset in it or not, a ball lying in a
    # goal or not): the moves after are clean. (One other game a run: more, and the 32-bit
    # build's test process, the simulator in it, runs out of heap.)
    from check import Rand

    r = Rand(31)
    for game in ("weykick", "holdem", "pocha"):
        detour = "send new %s\n" % game
        if r.below(2):
            detour += "reset\nwait 400\n"
        if game == "weykick" and r.below(2):
            detour += "ball %s\nwait 300\n" % r.choice(("A", "B"))
        evs = run(
            HEAD + "wait 300\n" + detour + "send new tock players=4\nwait 300\n"
            "card AS\nmove RC1 R18\nwait 400\ncard AH\nmove GC1 G18\nwait 2500\n"
        )
        moves = [(m["seat"], m["steps"]) for m in of(evs, "move")]
        assert moves == [("R", [["camp", "R18"]]), ("G", [["camp", "G18"]])], (detour, evs)
        assert of(evs, "illegal") == [], (detour, of(evs, "illegal"))
        _forget(game)


def _forget(game):
    """The detour game's code off this process's heap once its run is over: the next run
    then has Tock's and one other game's, as a board has (its code is frozen, in flash).
    Kept, the three games' code left the third run at the heap's edge, where any change
    of layout ran it out (at 330k, not at 320k)."""
    import sys

    for name in list(sys.modules):
        if name.startswith("games.%s." % game) or name == "games." + game:
            del sys.modules[name]
    package = sys.modules.get("games")
    if package and game in dir(package):
        delattr(package, game)
