# The game registry: every game the table plays, by name, as python-chess finds a variant.
# The table, the link's command checker, the table-script reader, the simulator and the host
# tools ask here instead of naming games (docs/adding-a-game.md).
#
# A game is a folder games/<name>/ (its name: the one people type and events carry, "tock")
# whose game.py declares it:
#   DECK       the cards its reader reads: None (no cards), "french" (52 + jokers: 7H, X)
#              or "spanish" (40 or 48: es:12B, as the tag registry names them)
#   SENSORS    what its simulated board senses besides cards: "squares" (a pawn on every
#              square), "goals" (a ball in a goal) or None
#   SETTINGS   its settings, typed: ((name, kind, default), ...), read by games/settings.py
#   COMMANDS   its own command words: {word: ((name, kind, default), ...)}, the same kinds
#   agree(s)   (optional) why checked settings do not go together, or None
# and its name in GAMES below; the first is the game a `new` naming none starts. Data only,
# but for agree(): a function costs a frozen board heap, data in literals none. By
# convention, games/<name>/tracker.py has the game's class, <Name>Game (TockGame), a
# games.base.Game that the table makes as <Name>Game(emit, names, settings) for settings
# checked in full (make_game, below). A game whose simulated table needs setting up has
# games/<name>/sim.py: simulated(board, game, fresh), which the simulator asks (sim/run.py)
# and no board holds.
#
# Only names live here, and a declaration is imported when asked for: a Tock table never
# loads another game's code (each module a board imports costs its heap).
GAMES = ("tock", "weykick", "holdem", "pocha")


def declaration(name):
    """The declaration (games/<name>/game.py) of a game; SettingsError (a ValueError) names
    the known ones."""
    if name not in GAMES:  # (None, 3, [] too: `in` compares, hashes nothing)
        from games.settings import SettingsError, _show

        raise SettingsError("unknown game %s; one of: %s" % (_show(name), ", ".join(GAMES)))
    return __import__("games.%s.game" % name, None, None, ("SETTINGS",))


def make_game(name, emit, names, settings):
    """The game a table plays, by name, its settings checked in full first (SettingsError,
    a ValueError, says what is wrong, an unknown game too): by the registry's convention
    (above), the class <Name>Game of games/<name>/tracker.py, TockGame for "tock". Only
    that game's code is imported onto the heap."""
    from games.settings import check

    settings = check(name, settings)
    cls = name[0].upper() + name[1:] + "Game"
    return getattr(__import__("games.%s.tracker" % name, None, None, (cls,)), cls)(
        emit, names, settings
    )
