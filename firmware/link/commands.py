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
# arguments are the game's settings, and `names` (who sits where: seat_names, below);
# `hello` is the link's own (link/link.py). The words
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
    # what the table shows and sounds (outputs.py), kept on flash: the LEDs' brightness in
    # percent, the buzzer, and Tock's hints (the pawns that can move, where a lifted one can go)
    "feedback": (
        ("brightness", ("opt", ("int", 0, 100)), None),
        ("sound", ("opt", ("choice", ("on", "off"))), None),
        ("hints", ("opt", ("choice", ("off", "pawns", "squares"))), None),
    ),
    "enrol": (("card", ("card", "cancel"), None),),
    "unenrol": (("tag", ("tag",), None),),
    "calibrate": (("mode", ("choice", ("on", "off")), "on"),),
    # the table on the club's network (over USB only; wifi.py): `wifi off`, or settings
    # by name, merged with those kept. Text, never quoted back in a refusal: two are secret
    "wifi": (
        ("do", ("opt", ("text", 5)), None),  # off, or plain (TLS no more); a choice would
        # quote what it was given
        ("ssid", ("opt", ("text", 32)), None),
        ("password", ("opt", ("text", 64)), None),  # the network's (WPA2: 8 to 63)
        ("broker", ("opt", ("text", 64)), None),  # HOST or HOST:PORT
        ("table", ("opt", ("text", 32)), None),  # its user at the broker, its topics' name
        ("secret", ("opt", ("text", 64)), None),  # its password at the broker
        # TLS to the broker: the CA's certificate (DER), in parts of base64 (a frame holds
        # 1 KB): the part, where it starts in the certificate, and the certificate's size
        ("ca", ("opt", ("text", 700)), None),
        ("ca-at", ("opt", ("int", 0, 8192)), None),
        ("ca-size", ("opt", ("int", 1, 8192)), None),
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
        if "names" in given:  # who sits where: the table says it (a `seated` event)
            out["names"] = seat_names(given.pop("names"))
        if given:  # settings given: checked in full; none: the game starts again as it was
            if name == game and settings:  # the game played: a setting not given keeps its
                kept = dict(settings)  # value (`new dealer=2` changes the dealer only)
                kept.update(given)
                given = kept
            out["settings"] = check(name, given)
        return out
    decl, _ = declaration(word, game)
    out.update(arguments(word, decl, given, settings))
    if word in ("config", "feedback") and len(out) == 1 + ("id" in out):
        raise SettingsError(
            "%s needs name=value settings: %s" % (word, ", ".join(d[0] for d in TABLE[word]))
        )
    return out


def seat_names(v):
    """`new`'s names: {seat: name}, or the text a person types (names=R=Ana,G+Y=Luis): at
    most 10 seats (Hold'em's 10) of 1-7 letters, digits or + (a game's seat: Tock's R or
    R+B, Weykick's A, a card table's 3), each a name of 1-16 printable characters, no name
    twice. Which seats the game has is the host's to check (the scoreboard, plateau send):
    the board says who sits where in its log as it was told. (One function: on a frozen
    board each function object costs heap.)"""
    from games.settings import _show

    if isinstance(v, str):
        if len(v) > 250:
            raise SettingsError("names: too long")
        given = {}
        for part in v.split(","):
            seat, eq, who = part.partition("=")
            if not eq:
                raise SettingsError(
                    "names is SEAT=NAME,... (names=R=Ana,B=Luis), not %s" % _show(part)
                )
            if seat in given:
                raise SettingsError("names: seat %s named twice" % _show(seat))
            given[seat] = who
        v = given
    if not isinstance(v, dict) or not 0 < len(v) <= 10:
        raise SettingsError("names: 1 to 10 seats, each SEAT=NAME")
    seen = []
    for seat, who in v.items():
        ok = isinstance(seat, str) and 0 < len(seat) <= 7
        for ch in seat if ok else "":
            if not ("A" <= ch <= "Z" or "a" <= ch <= "z" or "0" <= ch <= "9" or ch == "+"):
                ok = False
        if not ok:
            raise SettingsError("names: a seat is 1-7 letters, digits or +, not %s" % _show(seat))
        if not (isinstance(who, str) and 0 < len(who) <= 16 and who.strip() == who):
            raise SettingsError("names: a name is 1-16 characters, not %s" % _show(who))
        for ch in who:
            if ord(ch) < 32 or ord(ch) == 127:
                raise SettingsError("names: a name has no control characters")
        if who in seen:
            raise SettingsError("names: %s is named twice" % _show(who))
        seen.append(who)
    return v
