# Tock on the simulated table: the simulator (sim/run.py) asks a game's sim.py, when it has
# one, to set its table up. Simulator only, as firmware/sim is: `make deploy` and the board's
# image (firmware/manifest.py) leave every games/<game>/sim.py out.


def simulated(physical, game, fresh):
    """The simulator's physical table (sim/physical.py) for a game of Tock: on a `fresh`
    table (not one standing from before a kill) the pawns of a new game on their squares.
    True when pieces were placed."""
    if fresh and not game.resumed:
        physical.set_position(game.pos)
        return True
    return False
