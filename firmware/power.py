# Power-up: the board's objects, built one way for the board (main.py) and the simulator
# (sim/run.py), in the order the heap wants them, and what the flash kept taken up again
# before anything is sent. The table runs them from there (table.py); nothing here runs
# again until the next power-up.


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
    flash holds Wi-Fi settings (wifi.py: a table without them loads nothing of it)."""
    from store import Store

    from games import make_game
    from link.link import Link
    from sense.scan import Sense
    from table import Table

    store = Store(flash, clock) if flash else None
    lk = (link or Link)(transport.write, boot, ring=ring, keeper=store)
    # the sensing's buffers (the debouncers' frames) before the game's code is imported:
    # loaded as .mpy files (a board with PSRAM), its pieces would split the heap
    sense = Sense(hardware) if hardware else None
    names = hardware.names if hardware else ()
    # what the table shows (outputs.py), on a board with lights, displays or a buzzer: every
    # event passes it on its way to the link (its tap)
    emit = lk.emit
    shows = None
    if sense and (hardware.leds or hardware.displays or hardware.buzzer):
        from outputs import Outputs

        shows = Outputs(hardware, flash, sense.cards)
        emit = shows.tap(lk.emit)
    played = make_game(game, emit, names, settings or {})
    t = (table or Table)(transport, clock, lk, played, sense, store)
    t.emit = emit
    t.outputs = shows
    if sense and sense.cards:  # (made now, not when first needed: an object made mid-game
        from enrolment import Enrolment  # stays there, an island splitting the heap)

        t.enrolment = Enrolment(sense.cards, store, emit)
    if station:
        t.station = station
    if store:
        _resume(t, store)
        if store.holds("wifi.json"):  # set up on the club's network (wifi.py: loaded then only)
            from wifi import resume

            resume(t)
    return t


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
            import gc

            gc.collect()
            if attempt:
                store.set_aside("not restored (short of memory)")
                t.load(name, {})
    if saved and t.enrolment:
        t.enrolment.resume(saved.get("enrol"))
    if store.error:
        t.emit({"type": "error", "what": "saved-game", "why": store.error})
    if tags_why:  # numbered as this boot's, now that the link took up its numbering
        t.emit({"type": "error", "what": "enrolled-tags", "why": tags_why})
