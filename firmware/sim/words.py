# The words of a command as a person types them (`plateau send bet 3 40`, a table script's
# `send new tock players=2`) into the command object the link carries: the host's side of
# the commands, never the board's. It lives beside the script reader because the simulator,
# which reads a table script's `send` lines under MicroPython, needs it as much as the host
# tools do (they reach it as plateau.fw.sim.words); like the rest of sim/, no board holds it.
# The words are typed by the declarations the board checks a command with
# (link/commands.py, games/settings.py): what a person typed wrong is said before it is sent.
from games.settings import SettingsError, _show, digits
from link.commands import all_words, declaration, typed


def parse_words(words, game=None, settings=None):
    """['new', 'tock', 'players=2'] -> {"cmd": "new", "game": "tock", "players": 2}: the
    words typed by their declarations (positional arguments in declared order, or
    name=value), for the game being played if known (and its settings, if known: a `new`
    keeps those it does not give). ValueError (SettingsError) says what is wrong. A `new`
    naming no game, for a game not known here, is checked by the board alone."""
    if not words:
        raise SettingsError("no command given; one of: " + ", ".join(all_words()))
    word = words[0]
    rest = list(words[1:])
    cmd = {"cmd": word}
    if word == "new":
        if rest and "=" not in rest[0]:
            cmd["game"] = rest.pop(0)
        for w in rest:
            k, v = _pair(word, w)
            _once(word, cmd, k)
            cmd[k] = _read(k, v) if k == "position" else _number(v)
        if game or "game" in cmd:
            typed(cmd, game, settings)  # checked now, with the same checker the board uses
        return cmd
    decl, _ = declaration(word, game)
    names = [d[0] for d in decl]
    i = 0
    for w in rest:
        if "=" in w:
            k, v = _pair(word, w)
        elif i < len(names):
            k, v = names[i], w
        else:
            raise SettingsError("%s: %s should be name=value" % (word, _show(w)))
        i += 1
        _once(word, cmd, k)
        cmd[k] = v if k in ("seat", "card", "mode", "tag") or _text(decl, k) else _number(v)
    typed(cmd, game, settings)
    return cmd


def _text(decl, name):
    """Whether an argument is declared text (a password of digits stays text)."""
    for d in decl:
        if d[0] == name:
            kind = d[1][1] if d[1][0] == "opt" else d[1]
            return kind[0] == "text"
    return False


def _read(k, path):
    """Tock's `position=FILE`: the position (T4, a JSON object) read from the file; the
    rules core checks it with the rest of the settings."""
    import json

    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise SettingsError("%s: cannot read %s (%s)" % (k, _show(path), e))
    except ValueError as e:
        raise SettingsError("%s: %s is not JSON (%s)" % (k, _show(path), e))


def _once(word, cmd, k):
    """A name given twice (`players=2 players=3`, `bet 3 seat=3`) is refused: the last
    would win unsaid, and which one was meant is not known."""
    if k in cmd:
        raise SettingsError("%s: %s given twice" % (word, _show(k)))


def _pair(word, w):
    if "=" not in w:
        raise SettingsError("%s: %s should be name=value" % (word, _show(w)))
    k, v = w.split("=", 1)
    return k, v


def _number(v):
    return int(v) if digits(v) and len(v) < 12 else v
