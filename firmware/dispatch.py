# A host command, done: each word to what does it. The table's own words here (repl, new,
# config, selftest, calibrate), `feedback` to outputs.py, `wifi` to wifi.py, enrol and
# unenrol to enrolment.py, the rest to the game. The table (table.py) hands each command the
# link found to command() and answers with what it returns; nothing here reads the link's
# bytes or answers. Loaded at the first command (a table that is only played never loads
# it). One function, its imports inside it: on a frozen board each function and each
# module-level name costs heap.


def command(t, cmd):
    """A host command other than hello/snapshot for table `t`, checked in full first
    (link/commands.py): None when done, else why refused (nothing changed). The board goes
    on, whatever."""
    game = t.game
    try:
        from link.commands import typed

        try:
            cmd = typed(cmd, t.about().get("game"), game.settings if game else None)
        except ValueError as e:  # SettingsError: what is wrong, in words
            return str(e)
        name = cmd["cmd"]
        sense = t.sense
        if name == "repl":
            # P5: answer, give Ctrl-C back, leave the loop (main.py restarts in safe mode)
            t.running = False
            return None
        if name in ("enrol", "unenrol"):
            if not t.enrolment:
                return "this table has no card reader"
            why = t.enrolment.command(cmd)
            if name == "enrol" and t.store:
                t.save()  # the tag awaited is on flash before the answer goes
            return why
        if name == "wifi":  # (over USB only: the link refuses it from the network)
            from wifi import command

            return command(t, cmd)
        if name == "feedback":  # the lights, sound and hints (outputs.py), typed already
            if not t.outputs:
                return "this table has no lights, display or buzzer"
            return t.outputs.command(cmd)
        if name == "config":  # the table's timings, typed and in range already
            if sense and "debounce_ms" in cmd:
                sense.configure(cmd["debounce_ms"])
            if game:
                game.config(cmd)
            return None
        if name in ("selftest", "calibrate"):
            if not sense:
                return "this table has no sensing"
            if name == "selftest":  # the hardware, what the game makes of the sensors
                from clock import elapsed

                up = elapsed(t.clock.ticks_ms(), t.started)  # (up to 12.4 days)
                report = sense.selftest(game, up)
                if t.outputs:
                    report["outputs"] = t.outputs.report()
                if t.net:
                    report["wifi"] = t.net.report()
                t.link.tell(report)
            else:  # every settled sensor edge also sent as a `sensor` message, or no more
                sense.configure(calibrate=cmd.get("mode", "on") != "off")
            return None
        if name != "new":
            return game.command(cmd) if game else "no game is loaded"
        # A new game, of this kind or another, handed the tag last read on the card spot
        # (games/cards.py: a card lying there is not played at a power-up).
        if cmd["game"] != t.about().get("game"):
            try:
                t.load(cmd["game"], cmd.get("settings") or {})
            except ValueError as e:  # settings the game refuses
                return str(e)
            about = t.about()
            about["type"] = "game"
            t.emit(about)  # saved with its `game` event, like every event
            if game:
                t.game.spot = game.spot
            if sense:
                sense.held(t.game, t.clock.ticks_ms())
            why = None
        elif game:
            why = game.command(cmd)
        else:
            return "no game is loaded"
        if why is None and t.enrolment:
            t.enrolment.ended("a new game")
        if why is None and "names" in cmd:  # who sits where, in the table's own log
            t.emit({"type": "seated", "names": cmd["names"]})
        return why
    except MemoryError:
        import gc

        from link.link import SHORT

        gc.collect()
        return SHORT
    except Exception as e:  # a bug, or a check missing: refused, the table goes on
        t.failed(e)
        return "the firmware failed on this command (%s: %s)" % (type(e).__name__, e)
