# Tock, as the table finds it (games/__init__.py): tock.md T1-T19, a pawn on every square's
# Hall sensor, the French deck on the reader. Its settings and command words, declared once
# (checked by games/settings.py): players and rules (T1, T8); a whole position (T4) may be
# given instead.

DECK = "french"
SENSORS = "squares"

SETTINGS = (
    ("players", ("int", 2, 4), 4),
    ("rules", ("choice", ("classic", "king-exit", "toc-fr")), "classic"),
    ("position", ("position",), None),  # T4: a game from this position (tools, tests)
)

COMMANDS = {}  # type: dict[str, tuple]  # Tock's only words are the table's own (new, undo)


def make(emit, names, settings):
    from games.tock.tracker import TockGame  # imported only when a table plays Tock

    return TockGame(emit, names, settings)


def simulated(board, game, fresh):
    """The simulator's table (sim/board.py) for a game of Tock: a deck with the ruleset's
    jokers, and on a `fresh` table (not one standing from before a kill) the pawns of a new
    game on their squares. True when pieces were placed."""
    board.deck = 52 + game.pos.flags["jokers"]
    if fresh and not game.resumed:
        board.set_position(game.pos)
        return True
    return False
