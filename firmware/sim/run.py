# The simulated table: the real firmware loop (table.Table, link, game) driven by a table
# script instead of hands, on a virtual clock, talking through stdin/stdout (a pty when
# `plateau sim` runs it). Never deployed to a board.
#
#   MICROPYPATH=build/mpy micropython -X heapsize=64k -m sim.run SCRIPT [--realtime]
#       [--speed K] [--wait-host [--live-wait]] [--linger] [--boot HEX] [--journal FILE]
#       [--ring BYTES] [--flash-ms MS]
#       [--state DIR] [--world FILE] [--ticks-start MS] [--net SSID PASSWORD] [--air FILE]
#       (options before or after SCRIPT)
#   (run from firmware/; `plateau sim`, `plateau chaos` and `plateau resets` do all this;
#   --state is the simulated flash, --world the physical table kept across kill -9:
#   sim/world.py; --ticks-start: what the board's tick counter reads at the start, -5000 for
#   5 s before it wraps, as on a board up 12.4 days: sim.VirtualClock; --net: a Wi-Fi
#   network the simulated room has, which a table set up with `wifi` joins (sim/wlan.py),
#   its broker reached through this machine's sockets; --air: while that file exists the
#   access point is off, as if unplugged)
# The ring's store must be one block of the heap: take it before the imports fragment it.
from link.ring import Ring

RING = Ring()

import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from micropython import const  # noqa: E402
from power import power_up  # noqa: E402

from clock import BoardClock  # noqa: E402
from games import declaration  # noqa: E402
from link.link import HEARTBEAT_MS  # noqa: E402
from link.stdio import StdioTransport  # noqa: E402
from sim import VirtualClock  # noqa: E402
from sim.physical import PhysicalTable  # noqa: E402
from sim.script import ScriptError, read  # noqa: E402
from table import SCAN_MS, Table  # noqa: E402

_BOOT_MS = const(50)  # scanning before the script's first action
# Restarted on a table as it stood (--world), the board first reads the pile lying on the
# reader (the simulated field keeps 4 tags; this reader takes about 65 ms a tag) before
# hands act again: a real board's boot takes longer than that.
_RESTART_MS = const(300)
_PACE_MS = const(150)  # a brisk human: one hand action every 150 ms
# A card laid on the spot is moved off once the table has read it (a player waits for its
# confirmation); one the reader never reads (no reader, a tag it cannot power) is moved off
# after this long, as a player who gave up waiting.
_CONFIRM_MS = const(1000)
END_MS = 2000  # after the last action the table runs on this long (settling, heartbeats)
# Real time to wait for the host's hello, and for its bye at the end. Only a host that never
# comes waits this long: a loaded machine can take seconds to start one.
_HOST_WAIT_MS = const(60000)


class SimTable(Table):
    """The table, with the simulator's own word: `bye`, the host has read everything (the
    simulator may end). No board takes it."""

    bye = False

    def command(self, cmd):
        if cmd.get("cmd") == "bye":
            self.bye = True
            return None
        return Table.command(self, cmd)


class Sim:
    # the room's Wi-Fi (--net), set before a Sim is made (its boots join it): ssid ->
    # [password, rssi, up] (sim/wlan.py); class defaults, so a table without keeps its heap
    networks = None  # type: dict | None
    air = None  # type: str | None  # a file: while it exists, the access points are off (--air)
    air_clock = None  # type: BoardClock | None  # the network's time: real time (see boot)
    _passes = 0

    def __init__(
        self,
        settings,
        path,
        clock,
        transport,
        boot,
        hw_dir,
        ring=None,
        state=None,
        journal=None,
        world=None,
        piled=False,
    ):
        self.settings = settings
        self.journal = journal  # an open file: see JournalLink
        self.path = path
        self.clock = clock
        self.transport = transport
        self.script_dir = path.rsplit("/", 1)[0] if "/" in path else "."
        self.ring = RING if ring is None else ring
        self.state_dir = state  # the simulated flash: survives `reset`
        # The modules the table loads, loaded first: on a board they load at power-up on an
        # empty heap; loaded inside the first boot here, they would stay as islands when a
        # reset frees that table around them, and split the heap the next one is built on
        # (test_sim_button_resets: a 1 KB piece not found at a restart with 20 KB free)
        gc.collect()  # (what the last script in this process left goes first)
        __import__("games.%s.tracker" % settings["game"])
        import outputs  # noqa: F401

        import table  # noqa: F401

        self.physical = PhysicalTable(hw_dir, clock)  # the physical table: survives everything
        self.physical.piled = piled  # every card left on the last (PhysicalTable.piled)
        self.pace = _PACE_MS
        self.hosted = False
        self.linger = False  # at the script's end the board stays on (--linger): see run()
        self.boots = 0
        self.world = world  # sim/world.py: the table and the script line, across kill -9
        self.done_line = 0  # script lines up to this one are done (a restart skips them)
        stood = world.load() if world else None
        if stood:
            self.done_line = stood[0]
            self.physical.set_physical(stood[1])
        self.boot(boot)
        # the table line's deck (see act: card)
        self.spanish = declaration(settings["game"]).DECK == "spanish"
        self.deck_of = None  # the game whose deck that is, once a card is laid
        # The game's hook sets its simulated table up (its games/<game>/sim.py, which no board
        # holds: simulated(physical, game, fresh), True when it placed pieces); a game with none
        # starts empty. It runs once, here: its module goes after (a board never has it).
        hook = "games.%s.sim" % settings["game"]
        try:
            placed = __import__(hook, None, None, ("simulated",)).simulated(
                self.physical, self.game, not stood
            )
        except ImportError as e:
            if hook not in str(e):
                raise  # its sim.py is there and failed: not a game without one
            placed = False
        sys.modules.pop(hook, None)  # (the host's firmware runs under other names: plateau.fw)
        package = sys.modules.get(hook[:-4])
        if package and "sim" in dir(package):
            delattr(package, "sim")
        if placed:
            self.physical.sensors.power_up(clock.now)  # the pieces were there already

    def boot(self, boot_id):
        """Power-up: everything in RAM is new (link, ring, game, sensing); the flash (the
        state folder) and the physical table are what they were. Built as main.py builds a
        board (power.power_up), with the simulator's link (a journal, for the chaos harness)
        and table (`bye`)."""
        self.boots += 1
        self.ring.clear()
        link = None
        if self.journal:  # the chaos harness's ground truth (loaded only then: heap)
            from sim.journal import JournalLink

            JournalLink.journal = self.journal
            link = JournalLink
        settings = dict(self.settings)
        name = settings.pop("game")
        self.table = power_up(
            self.transport,
            self.clock,
            self.physical.boot(),
            boot_id,
            self.ring,
            self.state_dir,
            name,
            settings,
            link,
            SimTable,
            self.station,
        )
        self.link = self.table.link
        # the network lives in real time, the broker's, whatever the table's clock does (paced
        # faster, or standing still while the script waits for its host): a board's timeouts,
        # keepalive and backoff, and a table left on at the end still reconnects
        if self.networks is not None:
            self.table.net_clock = self.air_clock
        self.game = self.table.game  # the game saved on flash, maybe of another kind

    def station(self):
        """The board's Wi-Fi station on this boot: the real driver (hal/wlan.py) on the
        stand-in for the port's network.WLAN, in the room's networks (they outlive it)."""
        from hal.wlan import Wlan
        from sim.wlan import SimWLAN

        radio = SimWLAN(self.air_clock or BoardClock())
        radio.networks = {} if self.networks is None else self.networks
        return Wlan(radio)

    def weather(self):
        """--air: the access points go off while the harness's file exists."""
        self._passes += 1
        if self.air is None or self._passes % 64:
            return
        import os

        try:
            os.stat(self.air)
            up = False
        except OSError:
            up = True
        net, room = self.table.net, self.networks or {}
        for ssid in room:
            if room[ssid][2] != up:
                if net:
                    net.wlan._if.outage(ssid, up)  # noticed as a board notices it
                else:
                    room[ssid][2] = up

    def reset(self):
        """The `reset` action: the power goes and comes back."""
        self.physical.power_cut()
        # a board powers up with an empty heap: the last boot's objects go before the new
        # ones are made (alive beside them they fragment a heap a board would not have)
        del self.table, self.game, self.link
        self.deck_of = None  # (the last boot's game, else kept alive beside the new one)
        self.physical.hardware = None  # its drivers too: PhysicalTable.boot makes new ones
        gc.collect()
        self.boot("%08x" % (int.from_bytes(__import__("os").urandom(4), "big")))
        self.table.greet()

    def advance(self, ms):
        """Let `ms` of table time pass, the firmware loop running as on the board."""
        end = self.clock.now + ms  # the world's time: the board's counter may wrap meanwhile
        while self.clock.now < end and self.table.running:
            self.physical.tick()
            self.table.step()
            if self.networks:
                self.weather()
            if self.looks:
                self.look(self.looks)
            self.clock.sleep_ms(SCAN_MS)

    looks = None  # a file: what the players see, a line each time it has changed (--looks)
    _looked = -1

    def look(self, f):
        """What the players see (sim/look.py), as one JSON line in `looks`, once the table
        has drawn a change (its output stage idle): the LEDs' colours (hex, r g b a LED),
        each display's glass (hex, 8 pages of 128 bytes), the tone sounding (Hz, or 0), the
        sensors with a pawn over them (a 0 or 1 each, chain order), the LEDs that blink (the
        same), the number of the last event and the world's time; taken in a blink's lit
        half. `f`: the file (looks)."""
        out = self.table.outputs
        if out is None or out.redraws == self._looked or not out.idle():
            return
        if out._blink and not out._phase:  # (its lights off for a blink: seen when back on)
            return
        self._looked = out.redraws
        ph = self.physical
        chip = ph.led_chip
        leds = ""
        if chip:  # (the chain's bytes are g r b a LED)
            rgb = bytearray(chip.frame)
            for i in range(chip.n):
                rgb[3 * i], rgb[3 * i + 1] = chip.frame[3 * i + 1], chip.frame[3 * i]
            leds = _hex(rgb)
        f.write('{"seq":%d,"t":%d,"leds":"%s","displays":[' % (self.link.seq, self.clock.now, leds))
        for i in range(len(ph.displays)):
            f.write(('"%s"' if not i else ',"%s"') % _hex(ph.displays[i].glass()))
        tone = ph.buzzer_pwm.sounding() if ph.buzzer_pwm else 0
        magnets = "".join("1" if ph.sensors.present(i) else "0" for i in range(len(ph.names)))
        blink = "".join("1" if c & 0x80 else "0" for c in out.show.lights)  # (games.base.BLINK)
        f.write('],"tone":%d,"magnets":"%s","blink":"%s"}\n' % (tone, magnets, blink))
        f.flush()

    def wait_host(self, until, limit_ms, say=None, live=False):
        """Run the loop in real time until until() is true or limit_ms pass. Table time
        stands still (the script waits for the host) but the link lives: a heartbeat every
        HEARTBEAT_MS of real time, and `say` (a message) told again every second, so a host
        that missed it (it is not numbered) hears it again.
        `live` (plateau sim --serve, which waits for whatever tool comes first, maybe minutes
        later): table time passes as real time does and the hardware models run, as on a
        board left on. Frozen, the reader's driver counts its polls while the chip model's
        time stands still: every exchange times out, the driver takes the chip for dead and
        restarts it, and a tag laid in the first seconds of the script was read only at the
        next restart (about 6 s late)."""
        t0 = beat = told = last = time.ticks_ms()
        if say:
            self.link.tell(say)
        while not until() and time.ticks_diff(time.ticks_ms(), t0) < limit_ms:
            if live:
                now = time.ticks_ms()
                self.clock.now += time.ticks_diff(now, last)
                last = now
                self.physical.tick()
            self.table.step()
            now = time.ticks_ms()
            if live:
                beat = now  # the table's own heartbeats: its time passes
            elif time.ticks_diff(now, beat) >= HEARTBEAT_MS:
                self.link.tell({"type": "heartbeat", "up": self.clock.ticks_ms()})
                beat = now
            if say and time.ticks_diff(now, told) >= 1000:
                self.link.tell(say)
                told = now
            time.sleep_ms(SCAN_MS)

    def run(self):
        self.transport.table_mode()
        try:
            if not self.hosted:
                self.table.greet()  # a board says hello at boot; a waiting host already had it
            # the board is up and scanning before hands act
            self.advance(_RESTART_MS if self.done_line else _BOOT_MS)
            with open(self.path) as f:
                read(f, self.act_once)
                if not self.table.running:
                    return
            self.advance(END_MS)
            if self.table.net:  # on Wi-Fi: the board stays on until the broker has it all
                self.published()
            if self.journal:
                self.journal.write(
                    '{"boot":"%s","end":%d,"t":%d}\n'
                    % (self.link.boot, self.link.seq, self.clock.ticks_ms())
                )
                self.journal.flush()
            # A pty loses what is unread when its master side closes: tell the host the
            # script is over (the newest seq in "at") and give it time to get everything
            # and say bye.
            if self.hosted or self.linger:  # a board stays on: the host may still be asking
                self.wait_host(lambda: self.table.bye, _HOST_WAIT_MS, {"type": "sim_end"})
            else:
                self.link.tell({"type": "sim_end"})
        finally:
            self.transport.repl_mode()

    def published(self):
        """Runs on (real time: the broker's) until the broker acknowledged every event."""
        link = self.link
        t0 = time.ticks_ms()
        while link.acked < link.seq and self.table.running and self.table.net:
            if time.ticks_diff(time.ticks_ms(), t0) > _HOST_WAIT_MS:
                break
            self.advance(100)

    def act_once(self, action):
        if self.table.running and action[0] > self.done_line:
            self.act(*action)

    def done(self, line):
        """The hand action of `line` changed the table: kept before the firmware sees it."""
        if self.world:
            self.world.save(line, self.physical)

    def act(self, line, verb, args):
        physical = self.physical
        if verb == "pace":
            self.pace = args[0]
            self.done(line)
            return
        if verb == "wait":  # cut short by a kill, it is waited again in full: time passes
            self.advance(args[0])
            self.done(line)
            return
        if verb == "unplug":
            self.transport.up = False
            self.advance(args[0])
            self.transport.up = True
            self.done(line)
            return
        if verb == "position":
            self.position(line, args[0])
            self.done(line)
            return
        if verb in ("lift", "place"):
            physical.set(args[0], verb == "place")
        elif verb == "move":
            physical.set(args[0], 0)
            self.done(line - 1)  # a kill from here moves it again: lifting it again is nothing
            self.advance(self.pace // 2)
            physical.set(args[1], 1)
        elif verb == "glitch":
            physical.glitch(args[0], args[1])
        elif verb in ("leave", "take", "stack", "pair"):
            self.spot(line, verb, args)
        elif verb == "card":
            # the tag registry names Spanish cards es:12B (hardware/tags.md); a name both
            # decks share (4C) is the card of the deck in play, a `send new` switching it (the
            # script checker follows the same `new`s: sim/script.py). The deck is asked of the
            # registry once a game, not at every card (about() makes a dict).
            self.deck(line)
            uid, laid = self.lay(line, args[0])
            self.confirmed(line, uid, laid)
        elif verb == "tag":
            self.confirmed(line, args[0], physical.lay_tag(args[0]))
        elif verb == "button":
            physical.press(args[0])
        elif verb in ("ball", "clear"):
            physical.goal(args[0], verb == "ball")
        elif verb == "rail":  # the sensors' supply cut (off), back (on), or at args[0] mV
            a = args[0]
            physical.set_rail(0 if a == "off" else None if a == "on" else a)
        elif verb == "gather":
            physical.gather()
        elif verb == "send":
            self.send(line, args)
        elif verb == "reset":
            self.reset()
            self.done(line)
            self.advance(max(self.pace, _RESTART_MS))  # the board reads the pile, as above
            return
        else:
            raise ScriptError(line, "%r is not simulated yet" % verb)
        self.done(line)
        self.advance(self.pace)

    def lay(self, line, card, x=None, y=None):
        """The card laid on the spot (sim/physical.py lay_card): (UID hex, laid)."""
        try:
            return self.physical.lay_card(("es:" if self.spanish else "") + card, x, y)
        except ValueError as e:
            playing = self.table.about().get("game")
            raise ScriptError(line, "%s (the table plays %s)" % (e, playing))

    def spot(self, line, verb, args):
        """The card spot's other actions (docs/scripts.md): a card left lying there (`leave`),
        moved off (`take`), laid aligned on the one lying there (`stack`: neither answers;
        the player, given no confirmation, slides the one under it out, and the card laid is
        read alone, then moved off), two laid askew at once (`pair`: both answer, the table
        says two cards; the player takes the second back and the first is read, then moved
        off). Done again after a kill (the first line after the restart), each goes on from
        the table as it stands: a card no longer lying there was taken already, one lying
        under or beside another was not read at power-up (two aligned do not answer, two
        askew are said as two) and is waited for once alone."""
        physical = self.physical
        self.deck(line)
        again = self.done_line and line == self.done_line + 1
        spanish = "es:" if self.spanish else ""
        if verb == "take":
            uid = physical.uid_on_spot(spanish + args[0])
            if uid is None:
                if again:
                    return  # moved off before the kill
                raise ScriptError(line, "take %s: that card does not lie on the spot" % args[0])
            physical.take_off(uid)
            return
        if verb == "leave":
            uid, laid = self.lay(line, args[0])
            if laid:
                self.wait_read(line)
            return
        if verb == "stack":
            uid, laid = self.lay(line, args[0])
            under = [u for u in physical.on_spot() if u != uid]
            if laid:
                self.wait_read(line)
            for u in under:  # no confirmation: the card under it slid out
                physical.take_off(u)
            self.confirmed(line, uid, laid or bool(under))
            return
        first, laid = self.lay(line, args[0], 0, 0)  # askew: 8 mm apart, both answer
        if laid:
            second = self.lay(line, args[1], 8, 0)[0]
            self.wait_read(line)
        else:  # the first lies there: the second with it (not yet taken back), or not
            second = physical.uid_on_spot(spanish + args[1])
        if second is not None:
            physical.take_off(second)  # the table said two cards: the second taken back
        self.confirmed(line, first, laid or second is not None)

    def deck(self, line):
        """Which deck the cards of this line are of (the game in play's)."""
        game = self.table.game
        if game is not None and game is not self.deck_of:
            self.deck_of = game
            self.spanish = declaration(self.table.about()["game"]).DECK == "spanish"

    def wait_read(self, line):
        """The table runs until it has taken a read (or _CONFIRM_MS): kept first, as it lies."""
        self.done(line - 1)
        end = self.clock.now + _CONFIRM_MS
        before = self.reads()
        while self.clock.now < end and self.table.running and self.reads() == before:
            self.physical.tick()
            self.table.step()
            self.clock.sleep_ms(SCAN_MS)

    def confirmed(self, line, uid, laid=True):
        """A card (or tag) laid on the spot: read by the table, then moved off it, as a
        player does (docs/scripts.md, `card`). Kept as it lies first: a kill from here
        finds it lying there on restart, where the board read it as it came up, and this
        line moves it off (`laid` False). On a table `piled` (the old way: every card left
        on the last) it stays."""
        if self.physical.piled:
            return
        if laid:
            self.wait_read(line)
        self.physical.take_off(uid)

    def reads(self):
        """The reads the table has taken (what its confirmation shows a player, the card
        spot's light and tone where a table has them: a read done, its events on flash).
        The player moves a card off once its read is taken."""
        cards = self.table.sense.cards if self.table.sense else None
        return cards.reads if cards else 0

    def send(self, line, words):
        """A host command, put on the wire as the host would (frame, CRC, decoder)."""
        import json

        from link import frame
        from sim.words import parse_words

        try:
            game = self.table.game
            cmd = parse_words(words, self.table.about().get("game"), game and game.settings)
        except ValueError as e:
            raise ScriptError(line, str(e))
        # a text id: sent again after a kill, the board answers it without doing it twice
        cmd["id"] = "line%d" % line
        self.table.receive(frame.encode(json.dumps(cmd).encode()))

    def position(self, line, name):
        from sim.script import load_position

        if self.settings["game"] != "tock":
            raise ScriptError(line, "position is for Tock scripts")
        pos = load_position(line, name, self.script_dir)
        self.game.new_game(pos)
        # said as a new game from that position, as `new` says it: the live view and replay
        # follow the game from here (without it they took a legal move for a wrong one)
        self.game.emit({"type": "game", "game": "tock", "position": pos.to_dict()})
        self.physical.set_position(pos)
        self.advance(self.pace)


class Capture:
    """A transport for tests: keeps what the board writes (heartbeats aside: a long script
    would fill the heap with them), reads nothing. Given a file's path, the stream goes
    there (the port's file I/O costs the heap nothing, as a board's cable costs it
    nothing); else it is kept in pieces of _CHUNK bytes filled in turn (`frames`). Either
    way nothing is made a frame: small objects made between the table's own all through a
    script split the heap a simulated reset builds the next table on (a board's power-up
    starts on a fresh one)."""

    def __init__(self, path=None):
        self.frames = []  # pieces of the stream; the last one filled up to _at
        self._at = 0
        self.up = True
        self.path = path
        self._file = path and open(path, "wb")

    def write(self, data):
        if not self.up or data.find(b'"heartbeat"') >= 0:
            return
        if self._file:
            self._file.write(data)
            return
        frames = self.frames
        i = 0
        n = len(data)
        while i < n:
            if not frames or self._at == _CHUNK:
                frames.append(bytearray(_CHUNK))
                self._at = 0
            k = min(n - i, _CHUNK - self._at)
            frames[-1][self._at : self._at + k] = memoryview(data)[i : i + k]
            self._at += k
            i += k

    def read(self):
        return b""

    def table_mode(self):
        pass

    def repl_mode(self):
        pass

    def _pieces(self):
        """The stream so far, a piece at a time."""
        if self.path:
            if self._file:
                self._file.flush()
            with open(self.path, "rb") as f:
                while True:
                    piece = f.read(_CHUNK * 4)
                    if not piece:
                        return
                    yield piece
        last = len(self.frames) - 1
        for i, f in enumerate(self.frames):
            yield f if i < last else f[: self._at]

    def events(self):
        """What a host would log: numbered events once each (a board that restarts sends
        its last events again, as it does to a host that missed them), link messages all."""
        import json

        from link import frame

        d = frame.Decoder()
        out = []
        seen = set()
        for piece in self._pieces():
            for p in d.feed(piece):
                ev = json.loads(p)
                if "seq" in ev:
                    key = (ev["boot"], ev["seq"])
                    if key in seen:
                        continue
                    seen.add(key)
                out.append(ev)
        if self._file:
            self._file.close()
            self._file = None
        return out


_CHUNK = 128  # bytes a piece of what Capture keeps in memory (small: found in a split heap)


def _hex(data):
    from binascii import hexlify

    return hexlify(data).decode()


def play(path, hw_dir, boot="00000000", state=None, start=0, piled=False):
    """Plays a script file through the firmware in this process; returns the events.
    `start`: the board's tick counter at the start (sim.VirtualClock); `piled`: every card
    left on the last, on the reader (the table before its card spot: PhysicalTable.piled)."""
    with open(path) as f:
        settings = read(f)
    t = Capture(path + ".out")  # (beside the script: off the heap)
    # the module's ring, as a board has one (a boot clears it): a second 16 KB one would not
    # fit beside the simulator at an ESP32's heap
    Sim(settings, path, VirtualClock(start=start), t, boot, hw_dir, None, state, piled=piled).run()
    return t.events()


def slow_flash(ms):
    """Flash that takes time to write, as a board's does (a LittleFS program and erase takes
    milliseconds): each file written is renamed into place `ms` of real time after, so a
    reset harness can cut a save in the middle. The simulator's stand-in, never deployed."""
    import os
    import time

    import store

    class SlowOs:
        def rename(self, a, b):
            time.sleep_ms(ms)
            os.rename(a, b)

        def remove(self, path):
            os.remove(path)

        def mkdir(self, path):
            os.mkdir(path)

    store.os = SlowOs()  # type: ignore


# the options that take a value: what follows one is its value, never the script
_VALUED = (
    "--boot",
    "--hardware",
    "--state",
    "--speed",
    "--ticks-start",
    "--ring",
    "--journal",
    "--world",
    "--flash-ms",
    "--air",
    "--looks",
)
_TWO_VALUED = ("--net",)  # SSID PASSWORD


def option(argv, name, default=None):
    if name not in argv:
        return default
    i = argv.index(name) + 1
    if i >= len(argv):
        raise ValueError("%s needs a value" % name)
    return argv[i]


def script_of(argv):
    """The script: the argument that is neither an option nor an option's value, wherever it
    comes (`sim.run --ticks-start -5000 game.table` as well as `sim.run game.table ...`)."""
    i = 1
    while i < len(argv):
        if not argv[i].startswith("--"):
            return argv[i]
        i += 3 if argv[i] in _TWO_VALUED else 2 if argv[i] in _VALUED else 1
    return None


def main(argv):
    path = script_of(argv)
    if path is None:
        sys.stderr.write(
            "usage: sim.run SCRIPT [--hardware DIR] [--realtime | --speed K]"
            " [--wait-host [--live-wait]] [--boot HEX] [--journal FILE] [--ring BYTES]"
            " [--ticks-start MS] (options before or after SCRIPT)\n"
        )
        return 2
    try:
        with open(path) as f:  # the whole script is checked before anything runs
            settings = read(f, None, path.rsplit("/", 1)[0] if "/" in path else ".")
    except OSError as e:
        sys.stderr.write("sim: cannot read %s: %s\n" % (path, e))
        return 2
    except ScriptError as e:
        sys.stderr.write("sim: %s: %s\n" % (path, e))
        return 2
    try:
        start = int(option(argv, "--ticks-start", 0))
    except ValueError as e:
        sys.stderr.write("sim: --ticks-start: a whole number of ms expected (%s)\n" % e)
        return 2
    boot = option(argv, "--boot", "%08x" % int.from_bytes(__import__("os").urandom(4), "big"))
    hw_dir = option(argv, "--hardware", "../../hardware")
    state = option(argv, "--state")
    speed = option(argv, "--speed")
    clock = VirtualClock("--realtime" in argv, start)
    if speed:
        from sim.journal import PacedClock

        clock = PacedClock(float(speed), start)
    ring = option(argv, "--ring")  # a smaller ring: the chaos harness makes it lose events
    journal = option(argv, "--journal")
    net = argv.index("--net") if "--net" in argv else None
    if net is not None:  # the room's Wi-Fi network, before anything joins
        Sim.networks = {argv[net + 1]: [argv[net + 2], -58, True]}
        Sim.air_clock = BoardClock()
        Sim.air = option(argv, "--air")
    looks = option(argv, "--looks")
    if looks:
        Sim.looks = open(looks, "w")
    world = option(argv, "--world")
    if world:
        from sim.world import World

        world = World(world)
    sim = Sim(
        settings,
        path,
        clock,
        StdioTransport(),
        boot,
        hw_dir,
        Ring(int(ring)) if ring else None,
        state,
        open(journal, "a") if journal else None,
        world,
    )
    sim.transport.table_mode()  # from here a 0x03 on the wire is data (P5)
    sim.linger = "--linger" in argv
    flash_ms = option(argv, "--flash-ms")
    if flash_ms:
        slow_flash(int(flash_ms))
    if "--wait-host" in argv:
        sim.hosted = True
        sim.wait_host(lambda: sim.link.hellos, _HOST_WAIT_MS, live="--live-wait" in argv)
    try:
        sim.run()
    except ScriptError as e:
        sys.stderr.write("sim: %s: %s\n" % (path, e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
