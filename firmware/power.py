# Power-up: the board's objects, built one way for the board (main.py) and the simulator
# (sim/run.py), in the order the heap wants them, and what the flash kept taken up again
# before anything is sent. The table runs them from there (table.py); nothing here runs
# again until the next power-up.
import gc


def power_up(
    transport,
    clock,
    hardware,
    boot,
    ring,
    flash,
    game,
    settings=None,
    link=None,
    table=None,
    station=None,
):
    """The table, built and resumed: the store (in folder `flash`; None: nothing outlives a
    reset), the link (the store its keeper), the sensing of `hardware` (hal.hwmap.Hardware;
    None: a table without, for tests), enrolment (a table with a card reader), the game
    (`game` with `settings`, unless one is saved) and the table. `link`, `table`: the
    simulator's own classes (a link that keeps a journal, a table that answers `bye`);
    `station`: what makes the Wi-Fi station (the simulator's stand-in; None: the board's,
    hal.wlan.build). The ring comes from the caller, taken before anything else (one block
    of the heap). The table is not yet greeted (Table.greet); it joins the network if the
    flash holds Wi-Fi settings (a table without them loads nothing of it)."""
    from store import Store

    from games import make_game
    from link.link import Link
    from sense.scan import Sense
    from table import Table

    store = Store(flash, clock) if flash else None
    lk = (link or Link)(transport.write, boot, ring=ring, keeper=store)
    # the sensing's buffers (sense/cards.py: 704 B in one piece) before the game's code is
    # imported: loaded as .mpy files (a board with PSRAM), its pieces would split the heap
    sense = Sense(hardware) if hardware else None
    names = hardware.names if hardware else ()
    played = make_game(game, lk.emit, names, settings or {})
    t = (table or Table)(transport, clock, lk, played, sense, store)
    if sense and sense.cards:  # (made now, not when first needed: an object made mid-game
        from enrolment import Enrolment  # stays there, an island splitting the heap)

        t.enrolment = Enrolment(sense.cards, store, lk.emit)
    t.station = station
    if store:
        _resume(t, store)
        wifi, why = store.load_wifi()
        if why:
            t.link.emit({"type": "error", "what": "wifi", "why": why})
        if wifi:
            network(t, wifi)
    return t


# --- Wi-Fi: the table on the club's network (issue 30; docs/wifi.md) -----------------------------

# the `wifi` command's settings (link/commands.py), those it needs, and those that are secret
_WIFI = ("ssid", "password", "broker", "table", "secret")
_NEEDED = ("ssid", "broker", "table")


def network(t, settings):
    """The table on the network: its station joins, its uplink (link/uplink.py) publishes
    the link's events to the broker and brings the club's commands. Heap: the client's
    buffers and the uplink's, made here once (measured in docs/wifi.md)."""
    from link.uplink import Uplink

    if t.station is None:
        from hal.wlan import build

        wlan = build()
    else:
        wlan = t.station()
    t.link.table = settings["table"]
    t.net = Uplink(t.link, wlan, settings)


def wifi(t, cmd):
    """The `wifi` command (over USB only: the link refuses it from the network): the
    settings given, merged with those on flash, checked, kept (store.py, wifi.json), and the
    table on the network with them at once; `wifi off` leaves it and forgets them. None when
    done, else why refused; nothing said holds a password."""
    store = t.store
    if store is None:
        return "this table keeps nothing on flash: no Wi-Fi"
    do = cmd.get("do")
    if do == "off":
        _leave(t)
        return store.forget_wifi()
    if do not in (None, "set"):
        return "wifi takes off, or settings by name: " + ", ".join(_WIFI)
    given = {k: cmd[k] for k in _WIFI if k in cmd}
    if not given:
        return "wifi needs settings (%s), or off" % ", ".join(_WIFI)
    old, _ = store.load_wifi()
    settings = old or {}
    settings.update(given)
    missing = [k for k in _NEEDED if k not in settings]
    if missing:
        return "wifi needs %s too" % ", ".join(missing)
    why = _broker(settings["broker"]) or _name(settings["table"])
    if why:
        return why
    why = store.save_wifi(settings)
    if why:
        return why
    _leave(t)
    network(t, settings)
    return None


def _leave(t):
    if getattr(t, "net", None):
        t.net.stop()
        t.net = None
        gc.collect()


def _broker(text):
    """HOST or HOST:PORT: an address or a name (looked up at each connection after a
    failure: an address waits for nothing), the port 1 to 65535."""
    host, _, port = text.partition(":")
    if not host or not _chars(host, "-."):
        return "broker must be HOST or HOST:PORT (an address or a name), not %r" % text
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        return "broker's port must be a number from 1 to 65535"
    return None


def _name(text):
    if not _chars(text, "-_"):
        return "table must be 1-32 letters, digits, - or _ (its topics: plateau/<table>/...)"
    return None


def _chars(text, more):
    for ch in text:
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9" or ch in more):
            return False
    return True


def _resume(t, store):
    """Before anything is sent: the link takes up its numbering and its events, the saved
    game (if any) takes the place of the new one, enrolment its tags and the card it
    awaited. A saved game that does not fit is set aside
    (store.Store.set_aside), as is one that twice found the heap too short to be restored:
    the new game's saves never write over it."""
    tags_why = t.enrolment.load() if t.enrolment else None
    saved = store.load()
    state = saved.get("game") if saved else None
    if saved:
        t.link.restore(saved.get("link"))
    name = t.about().get("game")
    for attempt in range(2 if state else 0):
        try:
            if not isinstance(state, dict):
                raise ValueError("not a game")
            if state.get("game") != name:  # the table played another game
                t.load(state.get("game"), {})
            t.game.restore(state)
            break
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            store.set_aside("unusable (%s)" % e)
            t.load(name, {})
            break
        except MemoryError:  # a restore starts afresh: tried again once collected
            gc.collect()
            if attempt:
                store.set_aside("not restored (short of memory)")
                t.load(name, {})
    if saved and t.enrolment:
        t.enrolment.resume(saved.get("enrol"))
    if store.error:
        t.link.emit({"type": "error", "what": "saved-game", "why": store.error})
    if tags_why:  # numbered as this boot's, now that the link took up its numbering
        t.link.emit({"type": "error", "what": "enrolled-tags", "why": tags_why})
