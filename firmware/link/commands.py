# Host commands: the command objects the link carries (P4), with every word's arguments
# declared once, as data: the table's own words here, each game's own words (a Pocha `bid`,
# a Hold'em `bet`) in the game's declaration, games/<game>/game.py. One checker
# (games.settings) types them, on the host before a command is sent and on the board before
# anything changes. The words people type (`plateau send undo`, a table script's `send new
# tock players=2`) become command objects on the host's side, in sim/words.py: the board
# holds only what checks a command.
# (Names used only on a refusal or in one function are imported there: a module-level
# name is a slot in the module's dictionary, on the heap of a frozen board.)
from games import GAMES
from games import declaration as game_of
from games.settings import SettingsError
from link.link import good_id

# word -> its arguments, in the order the words take them: (name, kind, default). `new`'s
# arguments are the game's settings; `hello` is the link's own (link/link.py). The words
# only some games take (Weykick's pause and resume) are in those games' COMMANDS.
TABLE = {
    "new": (),
    "undo": (),
    "snapshot": (),
    "selftest": (),
    "repl": (),
    "config": (
        ("settle_ms", ("opt", ("int", 20, 2000)), None),
        ("illegal_ms", ("opt", ("int", 200, 30000)), None),
        ("debounce_ms", ("opt", ("int", 2, 200)), None),
    ),
    "enrol": (("card", ("card", "cancel"), None),),
    "unenrol": (("tag", ("tag",), None),),
    "calibrate": (("mode", ("choice", ("on", "off")), "on"),),
    # the table on the club's network (over USB only; wifi.py): `wifi off`, or settings
    # by name, merged with those kept. Text, never quoted back in a refusal: two are secret
    "wifi": (
        ("do", ("opt", ("text", 3)), None),  # off (a choice would quote what it was given)
        ("ssid", ("opt", ("text", 32)), None),
        ("password", ("opt", ("text", 64)), None),  # the network's (WPA2: 8 to 63)
        ("broker", ("opt", ("text", 64)), None),  # HOST or HOST:PORT
        ("table", ("opt", ("text", 32)), None),  # its user at the broker, its topics' name
        ("secret", ("opt", ("text", 64)), None),  # its password at the broker
    ),
}


def all_words():
    """Every command word: the table's, then each game's."""
    out = list(TABLE)
    for g in GAMES:
        for w in game_of(g).COMMANDS:
            if w not in out:
                out.append(w)
    return out


def declaration(word, game=None):
    """(declaration, game that declares it) of a word; game=None looks in every game.
    SettingsError when no game (or not that game) takes the word."""
    if word in TABLE:
        return TABLE[word], None
    for g in (game,) if game else GAMES:
        decl = game_of(g).COMMANDS.get(word)
        if decl is not None:
            return decl, g
    from games.settings import _show

    if game:
        own = sorted(game_of(game).COMMANDS)
        raise SettingsError(
            "unknown command %s for %s; it takes: %s"
            % (_show(word), game, ", ".join(sorted(TABLE) + own))
        )
    raise SettingsError("unknown command %s; one of: %s" % (_show(word), ", ".join(all_words())))


def typed(cmd, game=None, settings=None):
    """A command object checked in full: its word, its id, every argument's type and range
    (seats against the game's `settings` when given). Returns it with typed values;
    SettingsError says what is wrong. `new` is checked against the settings of the game it
    names (or `game`, the one being played)."""
    from games.settings import arguments, check

    if not isinstance(cmd, dict) or not isinstance(cmd.get("cmd"), str):
        from link.link import NOT_COMMAND

        raise SettingsError(NOT_COMMAND)
    word = cmd["cmd"]
    cid = cmd.get("id")
    if "id" in cmd and not good_id(cid):  # (checked by the link already: link/link.py)
        from link.link import BAD_ID

        raise SettingsError(BAD_ID)
    given = {}
    for k in cmd:
        if k not in ("cmd", "id"):
            given[k] = cmd[k]
    out = {"cmd": word}
    if "id" in cmd:
        out["id"] = cid
    if word == "new":
        name = given.pop("game", game or GAMES[0])  # none played: the first game
        game_of(name)  # SettingsError: not a game, and which are
        out["game"] = name
        if given:  # settings given: checked in full; none: the game starts again as it was
            if name == game and settings:  # the game played: a setting not given keeps its
                kept = dict(settings)  # value (`new dealer=2` changes the dealer only)
                kept.update(given)
                given = kept
            out["settings"] = check(name, given)
        return out
    decl, _ = declaration(word, game)
    out.update(arguments(word, decl, given, settings))
    if word == "config" and len(out) == 1 + ("id" in out):
        raise SettingsError(
            "config needs name=value settings: " + ", ".join(d[0] for d in TABLE["config"])
        )
    return out
