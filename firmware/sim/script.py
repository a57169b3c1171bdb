# Table scripts (docs/scripts.md): a physical session written down. Parsed in
# full before anything runs, so a bad script is rejected with its line number and reason.
# Runs under MicroPython (the simulator) and CPython (host tools, tests).

from micropython import const

from games import GAMES, declaration

_BUTTONS = const(("undo", "new", "pause"))
_GOALS = const(("A", "B"))
HEX = "0123456789ABCDEF"
# The simulator runs the table's loop at its scan rate, so table time costs CPU in proportion
# (about 4 s a table hour on a laptop, more on a board-sized interpreter): one `wait`, `unplug`
# or `glitch` lasts at most an hour of table time (wait longer in several lines), and `pace`,
# the time between two hand actions, at most a minute.
MAX_MS = 3600000
_MAX_PACE = const(60000)
# The longest line a script may have, a comment's part apart: the longest action (a `send new`
# with ten seats' stacks) is under a hundred. A file is read in pieces, a line kept up to this
# (what a longer one goes on with is read and dropped), so a line of any length, a generated
# or pasted comment of megabytes, costs the simulated board's heap no more than this.
MAX_LINE = const(1000)
_PIECE = const(256)  # characters read at a time


class ScriptError(ValueError):
    def __init__(self, line, why):
        super().__init__("line %d: %s" % (line, why))
        self.line = line
        self.why = why


def is_square(name):
    """A sensor name: track R1..Y18, home RH1..YH4, camp RC1..YC4, as
    games.tock.rules.sensor_cell reads them (the names' one place; not imported from there:
    the script reader would load the whole Tock rules, too much heap for the firmware tests
    at 96 KB; tests/host/test_tock_undo.py holds the two to the same answers)."""
    if len(name) < 2 or name[0] not in "RGBY":
        return False
    rest = name[1:]
    if rest[0] in "HC":
        return rest[1:] in ("1", "2", "3", "4")
    from games.settings import digits

    return digits(rest) and rest[0] != "0" and len(rest) < 3 and int(rest) <= 18


def _ms(line, word, top=MAX_MS):
    from games.settings import digits

    if not digits(word) or len(word) > 12 or int(word) > top:
        raise ScriptError(line, "expected a duration in ms from 0 to %d, got %r" % (top, word[:24]))
    return int(word)


_POSITION_MAX = const(4096)  # bytes in a position file: a T4 position is a few hundred
_POSITION_DEPTH = const(4)  # lists and objects inside each other: a position needs 3


def _nesting(text):
    """The deepest nesting of lists and objects in JSON text, without parsing it (brackets in
    strings do not count): refused before json sees it, whose CPython reader recurses."""
    deepest = level = 0
    quoted = escaped = False
    for c in text:
        if quoted:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "[" or c == "{":
            level += 1
            if level > deepest:
                deepest = level
        elif c == "]" or c == "}":
            level -= 1
    return deepest


def load_position(line, name, base):
    """The Tock position of a `position FILE` line (FILE relative to the script's folder
    `base`), checked by the rules core (T4); ScriptError names the line. The file is a
    user's: bounded in size, UTF-8 and shallow before JSON reads it."""
    import json

    from games.tock.rules import Position, PositionError

    path = name if name.startswith("/") else base + "/" + name
    import os

    try:
        # its size first: a read of _POSITION_MAX + 1 asks the heap for 4 KB in one piece at
        # every position line, which a simulator's split heap at the chip's size had not
        size = os.stat(path)[6]
        if size > _POSITION_MAX:
            raise ScriptError(line, "position %s: longer than %d bytes" % (name, _POSITION_MAX))
        with open(path, "rb") as f:
            data = f.read(size + 1)
    except OSError as e:
        why = "a folder, not a file" if e.args and e.args[0] == 21 else "no such file"
        raise ScriptError(line, "position %s: %s (beside the script)" % (name, why))
    if len(data) > _POSITION_MAX:
        raise ScriptError(line, "position %s: longer than %d bytes" % (name, _POSITION_MAX))
    try:
        text = data.decode("utf-8")
    except UnicodeError:
        raise ScriptError(line, "position %s: not UTF-8 text" % name)
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark (some editors write one) is not text
    if _nesting(text) > _POSITION_DEPTH:
        raise ScriptError(line, "position %s: nested deeper than a position (T4)" % name)
    try:
        return Position.start(json.loads(text))
    except (ValueError, PositionError) as e:
        raise ScriptError(line, "position %s: %s" % (name, e))


def _agrees(line, name, pos, table):
    """The table line and the position describe one game: a `players=` or `rules=` given on
    the table line must be the position's (the position holds the pawns of its players)."""
    for key, theirs in (("players", pos.players), ("rules", pos.rules)):
        if key in table and table[key] != theirs:
            raise ScriptError(
                line,
                "position %s is for %s=%s; the table line says %s=%s"
                % (name, key, theirs, key, table[key]),
            )


def _settings(line, game, words):
    """The table line's settings, checked in full by the game's declaration (the same
    checker as a host's `new`): refused here, with the line, before anything runs."""
    from games.settings import check, digits

    out = {}
    for w in words:
        if "=" not in w:
            raise ScriptError(line, "setting %r is not key=value" % w)
        k, v = w.split("=", 1)
        if k in out:  # the last would win unsaid: which one was meant is not known
            raise ScriptError(line, "setting %r given twice" % k)
        out[k] = int(v) if digits(v) and len(v) < 12 else v
    try:
        check(game, out)
    except ValueError as e:
        raise ScriptError(line, str(e))
    return out


def parse(text, base=None):
    """Script text -> (settings dict with "game", [(line, verb, args), ...])."""
    actions = []  # type: list[tuple]
    settings = read(text.split("\n"), actions.append, base)
    return settings, actions


def read(lines, on_action=None, base=None):
    """Checks every line of a script (any iterable of lines, a file included) and returns its
    settings; each action goes to on_action((line, verb, args)) as it is read. The simulator
    reads a script twice, checking it all first, then playing it line by line, so a long
    generated game never sits in the heap. `base`: the script's folder, where a `position`
    line's file is read and checked too (without it, only the line's form is)."""
    from games.settings import check

    settings = None
    game = None
    decl = None  # its declaration (games/__init__.py), looked up once, not at every line
    playing = None  # type: dict | None
    index = 0
    if hasattr(lines, "read"):  # a file: read a piece at a time (MAX_LINE)
        lines = _bounded(lines)
    for n, raw in enumerate(lines, 1):
        if len(raw) > MAX_LINE:
            at = raw.find("#", 0, MAX_LINE + 1)
            if at < 0:
                raise ScriptError(
                    n, "line longer than %d characters (only a comment may go on)" % MAX_LINE
                )
            raw = raw[:at]  # the rest is a comment
        words = _words(raw.split("#", 1)[0])
        if not words:
            continue
        verb = words[0]
        args = words[1:]
        if settings is None:
            if verb != "table":
                raise ScriptError(n, "a script starts with 'table GAME ...', not %r" % verb)
            if not args or args[0] not in GAMES:
                raise ScriptError(n, "unknown game; one of: " + ", ".join(GAMES))
            settings = _settings(n, args[0], args[1:])
            game = args[0]
            decl = declaration(game)
            playing = check(game, settings)  # the settings the table plays by, typed
            settings["game"] = game
            continue
        if verb == "send":  # a position is read beside the script: its `position` line
            for w in args:
                if w.startswith("position="):
                    raise ScriptError(n, "a position is started from with a `position FILE` line")
        action = (n, verb, _check(n, verb, args, index, game, playing, decl))
        if verb == "position" and base is not None:
            _agrees(n, args[0], load_position(n, args[0], base), settings)
        if verb == "send" and args[0] == "new":  # the table plays by these from here on
            from link.commands import typed
            from sim.words import parse_words

            cmd = typed(parse_words(args, game, playing), game, playing)
            if cmd["game"] != game or "settings" in cmd:
                playing = cmd.get("settings") or check(cmd["game"], {})
            game = cmd["game"]
            decl = declaration(game)
        index += 1
        if on_action:
            on_action(action)
    if settings is None:
        raise ScriptError(1, "empty script: it needs a 'table GAME ...' line")
    return settings


def _bounded(f):
    """The lines of the open file `f`, each cut to MAX_LINE + 1 characters: the rest of a
    longer line is read and dropped (read() then says whether it was a comment's)."""
    line = ""
    while True:
        piece = f.read(_PIECE)
        if not piece:
            break
        while piece:
            i = piece.find("\n")
            if len(line) <= MAX_LINE:
                line += piece[: (len(piece) if i < 0 else i)][: MAX_LINE + 1 - len(line)]
            if i < 0:
                break
            yield line
            line = ""
            piece = piece[i + 1 :]
    if line:
        yield line


def _words(text):
    """The words of a line, split at ASCII blanks only, as MicroPython splits them (CPython's
    split() also splits at a no-break space: a word the board would not know)."""
    for blank in "\t\n\r\f\v":
        text = text.replace(blank, " ")
    return [w for w in text.split(" ") if w]


def _count(line, verb, args, k):
    if len(args) != k:
        raise ScriptError(line, "%s takes %d argument%s" % (verb, k, "" if k == 1 else "s"))


# actions that mean something only on some tables: what a game's declaration says its table
# senses (SENSORS: pawns on squares, a ball in the goals) or reads (DECK: cards). Pairs in a
# private const, not a dict: a constant, where a dict would take the simulated board's heap.
_NEEDS = const(
    (
        ("lift", "squares"),
        ("place", "squares"),
        ("move", "squares"),
        ("position", "squares"),
        ("ball", "goals"),
        ("clear", "goals"),
        ("card", "cards"),
        ("leave", "cards"),
        ("take", "cards"),
        ("stack", "cards"),
        ("pair", "cards"),
    )
)


def _takes(decl, need):
    """Whether the table of a game (its declaration) takes an action that needs `need`."""
    return decl.DECK is not None if need == "cards" else decl.SENSORS == need


def _check(n, verb, args, index, game=None, playing=None, decl=None):
    """The action's arguments, then whether this table plays a game it means something in
    (a `move` in a Weykick script was silently nothing)."""
    out = _check_args(n, verb, args, index, game, playing, decl)
    need = None
    for v, what in _NEEDS:
        if v == verb:
            need = what
    if verb == "glitch":  # a square's sensor, or a goal's
        need = "goals" if args[0] in _GOALS else "squares"
    if decl is not None and need is not None and not _takes(decl, need):
        only = [g for g in GAMES if _takes(declaration(g), need)]
        raise ScriptError(
            n, "%r is an action of %s tables; this one plays %s" % (verb, " and ".join(only), game)
        )
    return out


def _check_args(n, verb, args, index, game=None, playing=None, decl=None):
    if verb in ("lift", "place"):
        _count(n, verb, args, 1)
        _square(n, args[0])
        return args
    if verb == "move":
        _count(n, verb, args, 2)
        _square(n, args[0])
        _square(n, args[1])
        return args
    if verb in ("card", "leave", "take", "stack", "pair"):  # the card spot's actions
        _count(n, verb, args, 2 if verb == "pair" else 1)
        from games.settings import card

        for a in args:
            try:  # in the deck of the game played (es:12B: Spanish)
                card(a, decl.DECK if decl else None)
            except ValueError as e:
                raise ScriptError(n, str(e))
        return args
    if verb == "tag":
        _count(n, verb, args, 1)
        uid = args[0].upper()
        if len(uid) not in (8, 14, 20) or any(c not in HEX for c in uid):
            raise ScriptError(n, "tag UID must be 4, 7 or 10 bytes in hex, got %r" % args[0])
        return [uid]
    if verb == "glitch":
        _count(n, verb, args, 2)
        if args[0] not in _GOALS:  # a square's sensor, or a goal's
            _square(n, args[0])
        return [args[0], _ms(n, args[1])]
    if verb in ("wait", "pace", "unplug"):
        _count(n, verb, args, 1)
        return [_ms(n, args[0], _MAX_PACE if verb == "pace" else MAX_MS)]
    if verb == "button":
        _count(n, verb, args, 1)
        if args[0] not in _BUTTONS:
            raise ScriptError(n, "unknown button %r; one of: %s" % (args[0], " ".join(_BUTTONS)))
        return args
    if verb == "rail":  # the sensors' supply: cut, back, or at a voltage (sagging)
        _count(n, verb, args, 1)
        if args[0] in ("off", "on"):
            return args
        from games.settings import digits

        if not digits(args[0]) or len(args[0]) > 4 or int(args[0]) > 6000:
            raise ScriptError(
                n, "rail takes off, on, or the sensors' supply in mV (0-6000), got %r" % args[0]
            )
        return [int(args[0])]
    if verb in ("reset", "gather"):
        _count(n, verb, args, 0)
        return args
    if verb == "send":  # typed now, by the same declarations the board checks them with
        from sim.words import parse_words

        if not args:
            raise ScriptError(n, "send needs a command")
        if args[0] == "repl":  # the board leaves its loop for the REPL: nothing after it runs
            raise ScriptError(
                n,
                "send repl hands the board to its REPL, ending the table: "
                "a script cannot go on after it (end the script instead)",
            )
        try:
            parse_words(args, game, playing)
        except ValueError as e:
            raise ScriptError(n, str(e))
        return args
    if verb in ("ball", "clear"):
        _count(n, verb, args, 1)
        if args[0] not in _GOALS:
            raise ScriptError(n, "unknown goal %r; one of: A B" % args[0])
        return args
    if verb == "position":
        _count(n, verb, args, 1)
        if index:
            raise ScriptError(n, "position must come right after the table line")
        return args
    raise ScriptError(n, "unknown action %r" % verb)


def _square(n, name):
    if not is_square(name):
        raise ScriptError(n, "unknown square %r (R1..Y18, RH1..YH4, RC1..YC4)" % name)
