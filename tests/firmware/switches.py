# A game switched to while the table runs takes the board as it stands (ADV5-2): Tock ->
# another game -> Tock on one table. The new Tock game learnt the board from sensor edges
# only, saw none (the pawns never moved) and asked for every pawn back in camp. Seeded
# detours through each other game (a reset in it or not, a ball lying in a goal or not):
# the moves after are clean. One detour a test module (test_sim_switch_<game>): under
# MicroPython each module is a process with a fresh heap, and one process loading every
# game's code as .mpy files (the 64-bit port) runs out of it.
from simcheck import of, run

HEAD = "table tock players=4 rules=classic\n"


def detours():
    """(game, detour) for each other game, drawn in order from one seed."""
    from check import Rand

    r = Rand(31)
    out = []
    for game in ("weykick", "holdem", "pocha"):
        detour = "send new %s\n" % game
        if r.below(2):
            detour += "reset\nwait 400\n"
        if game == "weykick" and r.below(2):
            detour += "ball %s\nwait 300\n" % r.choice(("A", "B"))
        out.append((game, detour))
    return out


def tock_after(other):
    """The detour through `other`, then Tock's first moves: clean."""
    (detour,) = [d for g, d in detours() if g == other]
    evs = run(
        HEAD + "wait 300\n" + detour + "send new tock players=4\nwait 300\n"
        "card AS\nmove RC1 R18\nwait 400\ncard AH\nmove GC1 G18\nwait 2500\n"
    )
    moves = [(m["seat"], m["steps"]) for m in of(evs, "move")]
    assert moves == [("R", [["camp", "R18"]]), ("G", [["camp", "G18"]])], (detour, evs)
    assert of(evs, "illegal") == [], (detour, of(evs, "illegal"))
