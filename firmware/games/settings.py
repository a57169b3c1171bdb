# Settings and command arguments, typed: every game declares its settings once, as data, in
# its declaration games/<game>/game.py (SETTINGS, and COMMANDS for its own words); the table's
# own words are in link/commands.py. This one checker reads those declarations for every
# path a value comes in by: a host `new` (same game or a switch), a table script's `table`
# and `send` lines, `plateau gen`, a saved game read back. It checks everything before
# anything changes and says what is wrong in words; it never allocates in proportion to what
# it is given (a `seats=1000000000` is refused by its range, not by a MemoryError).
#
# A declaration is (name, kind, default). Kinds:
#   ("int", lo, hi)           a whole number lo..hi (true/false are not numbers)
#   ("choice", (a, b, ...))   one of these values
#   ("text", n)               a string of at most n characters
#   ("pair", lo, hi)          "small/big": two whole numbers lo..hi (blinds; how the two
#                             relate is the game's rule, its agree(): Hold'em's H2)
#   ("each", lo, hi, setting) one whole number lo..hi for every seat (100), or one per seat
#                             of that setting's count: "100,80,250" or [100, 80, 250]
#                             (Hold'em's stacks); a list comes back as a list of ints
#   ("mode", ((kind, lo, hi), ...))   "kind:N" (Weykick's first-to:10, timed:5)
#   ("seat", setting)         a seat number 1..(that setting's value), as text "1", "2", ...
#   ("card",)                 a playing card: French (7H, 10C, X) or Spanish (es:12B)
#   ("card", word)            the same, or that word (`enrol card=cancel`)
#   ("tag",)                  a card tag's UID in hex (4, 7 or 10 bytes), or "all"
# Words are lower case (command words, games, setting names, choices: `calibrate on`), but
# what names a card or a tag is read in either case (7h, 04a31922), and so is the word that
# stands in its place (`enrol CANCEL`, `unenrol ALL`): one rule a field.
#   ("checked", module, name, how)  a value the game's own code reads: name.how(v) of that
#                             module, whose ValueError says what is wrong (Tock's position,
#                             T4, by its rules core: Position.start); a value given as text
#                             (a person's `position=FILE`) is read by the host's words
#                             (sim/words.py) first. The checker names no game
# A setting whose default is None is optional (the game derives it, e.g. Hold'em's big-bet).

from games import declaration


class SettingsError(ValueError):
    pass


def check(game, given):
    """The whole settings of `game` from the given ones (a dict: name -> value, as typed by a
    person or sent as JSON) and the declared defaults. SettingsError says what is wrong."""
    mod = declaration(game)
    if not isinstance(given, dict):
        raise SettingsError("settings are name=value pairs")
    names = [d[0] for d in mod.SETTINGS]
    for key in given:
        if key not in names:
            raise SettingsError(
                "unknown setting %s for %s; known: %s" % (_show(key), game, ", ".join(names))
            )
    out = {}  # type: dict
    for name, kind, default in mod.SETTINGS:
        if name in given:
            out[name] = value(name, kind, given[name], out)
        elif default is not None:
            out[name] = default
    agree = getattr(mod, "agree", None)
    why = agree(out) if agree else None
    if why:
        raise SettingsError(why)
    return out


def arguments(word, decl, given, context=None):
    """A command's arguments, typed: `decl` is the word's declaration (a tuple of
    (name, kind, default)); `given` the command's arguments (its "cmd" and "id" aside);
    `context` the settings of the game played (how many seats there are). Returns the typed
    arguments; SettingsError says what is wrong."""
    names = [d[0] for d in decl]
    for key in given:
        if key not in names:
            if not names:
                raise SettingsError("%s takes no arguments (got %s)" % (word, _show(key)))
            raise SettingsError(
                "%s: unknown argument %s; it takes: %s" % (word, _show(key), ", ".join(names))
            )
    out = {}
    for name, kind, default in decl:
        if name in given:
            try:
                out[name] = value(name, kind, given[name], context)
            except SettingsError as e:
                raise SettingsError("%s: %s" % (word, e))
        elif default is not None:
            out[name] = default
        elif kind[0] != "opt":
            raise SettingsError("%s needs %s" % (word, name))
    return out


def value(name, kind, v, known=None):
    """One value checked against its kind; returns it normalised (seats as text)."""
    k = kind[0]
    if k == "opt":  # an optional argument: the kind that follows, or left out
        return value(name, kind[1], v, known)
    if k == "int":
        if not _whole(v) or not kind[1] <= v <= kind[2]:
            raise SettingsError(
                "%s must be a whole number from %d to %d, not %s"
                % (name, kind[1], kind[2], _show(v))
            )
        return v
    if k == "choice":
        for c in kind[1]:
            if v == c and type(v) is type(c):
                return c
        raise SettingsError(
            "%s must be one of %s, not %s" % (name, " ".join(str(c) for c in kind[1]), _show(v))
        )
    if k == "text":
        if not isinstance(v, str) or not 0 < len(v) <= kind[1]:
            raise SettingsError("%s must be text of 1 to %d characters" % (name, kind[1]))
        return v
    if k == "pair":
        parts = v.split("/") if isinstance(v, str) and len(v) <= 24 else ()
        lo, hi = kind[1], kind[2]
        if len(parts) == 2 and all(digits(p) and len(p) < 12 for p in parts):
            a, b = int(parts[0]), int(parts[1])
            if lo <= a <= hi and lo <= b <= hi:
                return "%d/%d" % (a, b)
        raise SettingsError(
            "%s must be small/big, two whole numbers from %d to %d (1/2), not %s"
            % (name, lo, hi, _show(v))
        )
    if k == "each":
        if digits(v) and len(v) < 12:
            v = int(v)  # one number typed: for every seat
        if _whole(v):
            return value(name, ("int", kind[1], kind[2]), v)
        count = known.get(kind[3]) if known else None
        parts = v.split(",") if isinstance(v, str) and len(v) <= 12 * 10 else v
        if isinstance(parts, list) and len(parts) <= 10:
            nums = [int(p) if digits(p) and len(p) < 12 else p for p in parts]
            if all(_whole(n) and kind[1] <= n <= kind[2] for n in nums):
                if count is None or len(nums) == count:
                    return nums
                raise SettingsError("%s: %d values for %d %s" % (name, len(nums), count, kind[3]))
        raise SettingsError(
            "%s must be a whole number from %d to %d, or one per seat (100,80,250), not %s"
            % (name, kind[1], kind[2], _show(v))
        )
    if k == "mode":
        word, _, n = v.partition(":") if isinstance(v, str) and len(v) <= 24 else ("", "", "")
        for kname, lo, hi in kind[1]:
            if word == kname and digits(n) and len(n) < 12 and lo <= int(n) <= hi:
                return "%s:%d" % (word, int(n))
        raise SettingsError(
            "%s must be %s, not %s"
            % (name, " or ".join("%s:N (N %d to %d)" % m for m in kind[1]), _show(v))
        )
    if k == "seat":
        top = 10  # type: int
        if known and _whole(known.get(kind[1])):
            top = known[kind[1]]
        s = str(v) if _whole(v) or isinstance(v, str) and len(v) <= 3 else ""
        if not (digits(s) and 1 <= int(s) <= top and s[0] != "0"):
            raise SettingsError("%s must be a seat from 1 to %d, not %s" % (name, top, _show(v)))
        return s
    if k == "card":
        # a word the card kind also takes (enrol cancel): in either case, as a card's name
        if len(kind) > 1 and isinstance(v, str) and v.lower() == kind[1]:
            return kind[1]
        try:
            return card(v)
        except SettingsError as e:
            raise SettingsError("%s: %s" % (name, e))
    if k == "tag":
        return _tag(name, v)
    if k == "checked":
        reader = getattr(__import__(kind[1], None, None, (kind[2],)), kind[2])
        try:
            getattr(reader, kind[3])(v)
        except ValueError as e:
            raise SettingsError("%s: %s" % (name, e))
        return v
    raise SettingsError("%s: no kind %s" % (name, _show(k)))


def card(v, deck=None):
    """A card as the tag registry names it, for a deck: French '7h' -> '7H', 'X'; Spanish
    '12B' (deck "spanish") -> 'es:12B'; text that says es: is Spanish whatever the deck. The
    one place that tells the decks apart (a game's DECK: games/__init__.py). SettingsError
    names what is wrong."""
    from games.cards import CardError, parse_card, parse_spanish

    try:
        if isinstance(v, str) and (deck == "spanish" or v.startswith("es:")):
            return "es:%d%s" % parse_spanish(v[3:] if v.startswith("es:") else v)
        rank, suit = parse_card(v)
    except CardError as e:
        raise SettingsError(str(e))
    return rank + suit


def _tag(name, v):
    """A card tag's UID in hex, 4, 7 or 10 bytes (what `enrolled` and `unknown-tag` events
    name), upper case; or "all" (in either case, as the UID's hex)."""
    if isinstance(v, str) and v.lower() == "all":
        return "all"
    if isinstance(v, str) and len(v) in (8, 14, 20):
        u = v.upper()
        for ch in u:
            if ch not in "0123456789ABCDEF":
                break
        else:
            return u
    raise SettingsError(
        "%s must be a tag's UID in hex (4, 7 or 10 bytes, e.g. 04A31922) or all, not %s"
        % (name, _show(v))
    )


def digits(s):
    """Plain ASCII digits: CPython's isdigit() also takes "２" (which int() reads as 2, where
    the board's MicroPython refuses it) and "²" (which int() refuses)."""
    if not isinstance(s, str) or not s:
        return False
    for c in s:
        if not "0" <= c <= "9":
            return False
    return True


def _whole(v):
    # 2**30: the ESP32's small ints; beyond them, numbers cost heap (a literal: no name on it)
    return isinstance(v, int) and not isinstance(v, bool) and -0x40000000 < v < 0x40000000


def _show(v):
    """A value quoted for a refusal: short, whatever it is (a huge list is not repeated)."""
    if isinstance(v, str):
        return repr(v) if len(v) <= 24 else repr(v[:24]) + "..."
    if v is None or isinstance(v, (bool, int, float)):
        s = repr(v)
        return s if len(s) <= 24 else s[:24] + "..."
    return "a list" if isinstance(v, list) else "an object" if isinstance(v, dict) else "that"
