"""Tables to a broker: `Bridge` publishes a table's log, `Feed` reads every table's.

Topics, per table (a name of letters, digits, `-` and `_`):
  plateau/<table>/events    every log line, in order, QoS 1: {"epoch", "line", "prev", "event"}
  plateau/<table>/state     the table's folded state (club.state), retained, for late joiners
  plateau/<table>/presence  {"online": bool, ...}, retained; the broker says offline for a
                            bridge that vanished (its last will)

The log is the truth. The bridge reads it as it grows and publishes line after line, never
more than WINDOW lines ahead of the broker's acknowledgements; it remembers (in LOG.bridge)
the last line the broker acknowledged. When the broker goes away the bridge drops that
connection and everything in flight, and on the next one publishes again from the first line
not acknowledged: nothing is lost, some lines may come twice (QoS 1 allows it anyway).
Consumers drop repeats by line (`line` not above the last taken) and numbered repeats by
(boot, seq) (club.state.TableState.feed); `prev` is the line published before this one, so a
consumer sees a hole (lines the broker lost) and takes the next retained state instead.
`epoch` names one log: a log replaced by another starts a new epoch at line 1."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import paho.mqtt.client as mqtt

from plateau import events
from plateau.club.state import TableState, board_state
from plateau.logger import scan_log

TABLE = re.compile(r"[A-Za-z0-9_-]{1,32}\Z")
WINDOW = 100  # lines published and not yet acknowledged, at most
STATE_EVERY_S = 0.25  # the retained state, at most this often while lines flow
HEARTBEAT_S = 5.0  # the bridge's presence again, with the time: the scoreboard sees it is there
MAX_PAYLOAD = 65536  # a state is a few KB; an event line at most events.MAX_LINE


def topic(table: str, what: str) -> str:
    return f"plateau/{table}/{what}"


def check_table(name: str) -> str:
    if not TABLE.match(name):
        raise ValueError(f"table name {name!r}: 1-32 letters, digits, - or _")
    return name


@dataclass
class Broker:
    """Where the broker is and who we are to it."""

    host: str = "127.0.0.1"
    port: int = 1883
    user: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str, user: str | None = None, password_file: str | None = None) -> Broker:
        """'host:port' or 'host' (1883). The password comes from a file (never the command
        line, which other users see) or PLATEAU_MQTT_PASSWORD."""
        host, _, port = url.rpartition(":") if ":" in url else (url, "", "1883")
        if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            raise ValueError(f"broker {url!r}: HOST:PORT, the port a number from 1 to 65535")
        password = os.environ.get("PLATEAU_MQTT_PASSWORD")
        if password_file:
            password = Path(password_file).read_text().strip()
        return cls(host or "127.0.0.1", int(port), user, password)

    def client(
        self, client_id: str = "", clean: bool = True, reconnect: bool = False
    ) -> mqtt.Client:
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=clean,
            reconnect_on_failure=reconnect,
        )
        if self.user:
            c.username_pw_set(self.user, self.password)
        return c


def envelope(epoch: str, line: int, prev: int, ev: dict) -> bytes:
    return json.dumps(
        {"epoch": epoch, "line": line, "prev": prev, "event": ev},
        separators=(",", ":"),
        ensure_ascii=True,
    ).encode()


class Refused(ValueError):
    """A message that is not what a bridge sends: why, in a few words (the scoreboard counts
    its refusals by them)."""


# what a bridge's message never exceeds, per topic: (bytes, lists and objects inside each
# other). A state is a few KB nested 5 deep; an event line at most events.MAX_LINE, and its
# envelope is one level more than a log line.
LIMITS = {
    "events": (events.MAX_LINE + 256, events.MAX_DEPTH + 1),
    "state": (MAX_PAYLOAD, 8),
    "presence": (1024, 1),
    "write": (16384, 3),  # an operator's request to the scoreboard (players, a decision)
}


def decode(payload: bytes, what: str) -> Any:
    """A message's JSON, refused alike on every topic before it is parsed: too long, nested
    too deep (found without parsing: a state nested 900 deep once raised RecursionError in
    the scoreboard), not UTF-8, not JSON (NaN and Infinity included)."""
    size, depth = LIMITS[what]
    if len(payload) > size:
        raise Refused(f"longer than {size} bytes")
    if events._depth(payload) > depth:
        raise Refused(f"nested deeper than {depth}")
    try:
        return events._decode(payload.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError included
        raise Refused("not JSON") from e


def open_envelope(payload: bytes) -> tuple[str, int, int, dict]:
    """(epoch, line, prev, event) from an events message, checked as a log line is (size,
    depth, the event's shape); Refused says what is wrong."""
    d = decode(payload, "events")
    if not isinstance(d, dict):
        raise Refused("not an object")
    epoch, line, prev, ev = d.get("epoch"), d.get("line"), d.get("prev"), d.get("event")
    if not isinstance(epoch, str) or not 0 < len(epoch) <= 32:
        raise Refused("bad epoch")
    if not (isinstance(line, int) and isinstance(prev, int)):
        raise Refused("bad line numbers")
    if not (events.is_count(line) and events.is_count(prev) and prev < line):
        raise Refused("bad line numbers")
    why = events.shape(ev)
    if why:
        raise Refused(f"bad event: {why}")
    assert isinstance(ev, dict)
    return epoch, line, prev, ev


def open_state(payload: bytes) -> TableState:
    """A bridge's retained state, checked field by field (TableState.from_dict), or a
    stand-alone table's (its hello and snapshot: club.state.board_state)."""
    d = decode(payload, "state")
    if isinstance(d, dict) and "snapshot" in d and "view" not in d:
        return board_state(d)  # a stand-alone table's: its hello and snapshot
    return TableState.from_dict(d)


def open_presence(payload: bytes) -> dict:
    """{"online": bool, ...} (an empty retained message clears it: offline)."""
    if not payload:
        return {"online": False}
    d = decode(payload, "presence")
    if not isinstance(d, dict) or not isinstance(d.get("online"), bool):
        raise Refused('a presence is {"online": true or false}')
    for key in ("since", "at", "logged"):
        if key in d and not (isinstance(d[key], int | float) and not isinstance(d[key], bool)):
            raise Refused(f"a presence with a bad {key}")
    return d


# --- the table's side -------------------------------------------------------------------------


class Bridge:
    """Publishes one table's log (see the module's comment). `run()` until `stop` is set;
    `follow=False` returns once every line is acknowledged (a finished log)."""

    def __init__(
        self,
        log: str | os.PathLike,
        table: str,
        broker: Broker,
        say: Callable[[str], None] = lambda m: None,
    ):
        self.log = Path(log)
        self.table = check_table(table)
        self.broker = broker
        self.say = say
        self.cursor_path = Path(f"{self.log}.bridge-{table}")
        self.stop = threading.Event()
        self.draining = threading.Event()  # set: publish what the log holds, then return
        self._replaced = False
        self.published = 0  # lines sent (repeats after a reconnection included)
        self.connections = 0
        self._lock = threading.Lock()
        self._acked: set[int] = set()
        self._connected = threading.Event()
        self._said_unreachable = False  # said once until the broker is reached
        self._lost = threading.Event()
        self.since = time.time()
        self._load_cursor()

    # the cursor: the first line not acknowledged, kept across runs
    def _load_cursor(self) -> None:
        try:
            c = json.loads(self.cursor_path.read_text())
            self.epoch, self.acked_line, self.acked_off = c["epoch"], c["line"], c["offset"]
            self.ino = c.get("ino")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            c = None  # unreadable, not JSON, not an object: from the first line
        counts = (self.acked_line, self.acked_off) if c else ()
        if (
            not c
            or not isinstance(self.epoch, str)
            or not self.epoch.isalnum()
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts)
            or (c and self.acked_line > self.acked_off)  # a line is one byte at least
            or not (self.ino is None or isinstance(self.ino, int))
        ):
            self._new_epoch()  # a damaged cursor: the log is published again, a new epoch

    def _new_epoch(self) -> None:
        self.epoch = secrets.token_hex(4)
        self.acked_line = self.acked_off = 0
        self.ino = None

    def _save_cursor(self) -> None:
        tmp = self.cursor_path.with_suffix(".tmp")
        tmp.write_text(
            json.dumps(
                {
                    "epoch": self.epoch,
                    "line": self.acked_line,
                    "offset": self.acked_off,
                    "ino": self.ino,
                }
            )
        )
        os.replace(tmp, self.cursor_path)

    def _open_log(self) -> IO[bytes] | None:
        try:
            f = open(self.log, "rb")  # noqa: SIM115 (closed by run)
        except FileNotFoundError:
            return None
        st = os.fstat(f.fileno())
        if (self.ino is not None and st.st_ino != self.ino) or st.st_size < self.acked_off:
            self.say(f"bridge: {self.log} was replaced: publishing it from its first line")
            self._new_epoch()
        elif self.acked_off and os.pread(f.fileno(), 1, self.acked_off - 1) != b"\n":
            self.say(f"bridge: {self.cursor_path} does not end a line: publishing from line 1")
            self._new_epoch()  # a damaged cursor, not where a line ends
        self.ino = st.st_ino
        return f

    def _replaced_on_disk(self, offset: int) -> bool:
        """The path holds another log than the one being read (rotated, or started again)."""
        try:
            st = os.stat(self.log)
        except FileNotFoundError:
            return False  # gone for now: wait for the next one
        return st.st_ino != self.ino or st.st_size < offset

    def _fold_to_cursor(self, f: IO[bytes]) -> TableState:
        """The state as of the acknowledged line (a restarted bridge goes on from there)."""
        state = TableState(self.table, self.epoch)
        for n, _, ev, _ in scan_log(f, 0, 0, partial=False):
            if n > self.acked_line:
                break
            if ev is not None:
                state.feed(n, ev)
        return state

    # the connection: a new client each time (what was in flight on the old one is dropped
    # and published again from the log)
    def _connect(self) -> mqtt.Client | None:
        self._connected.clear()
        self._lost.clear()
        c = self.broker.client()
        pres = topic(self.table, "presence")
        c.will_set(pres, json.dumps({"online": False}), qos=1, retain=True)
        c.max_inflight_messages_set(WINDOW + 10)

        def on_connect(client, userdata, flags, rc, props):
            if rc.is_failure:
                self.say(f"bridge: broker refused: {rc}")
                self._lost.set()
            else:
                self._connected.set()

        def on_disconnect(client, userdata, flags, rc, props):
            self._lost.set()

        def on_publish(client, userdata, mid, rc, props):
            with self._lock:
                self._acked.add(mid)

        c.on_connect, c.on_disconnect, c.on_publish = on_connect, on_disconnect, on_publish
        try:
            c.connect(self.broker.host, self.broker.port, keepalive=5)
        except OSError as e:
            self._unreachable(e.strerror or str(e))
            return None
        c.loop_start()
        t0 = time.monotonic()
        while not self._connected.wait(0.05):
            if self._lost.is_set() or time.monotonic() - t0 > 5 or self.stop.is_set():
                c.loop_stop()
                if not self._lost.is_set() and not self.stop.is_set():
                    self._unreachable("no answer within 5 s")
                return None
        self.connections += 1
        self._said_unreachable = False
        self.since = time.time()
        c.publish(pres, self._presence(), qos=1, retain=True)
        return c

    def _presence(self) -> str:
        """The bridge is there: since when, the time now, and when its log last grew."""
        try:
            logged: float | None = os.stat(self.log).st_mtime
        except OSError:
            logged = None
        d = {"online": True, "since": self.since, "at": time.time()}
        return json.dumps({**d, "logged": logged} if logged else d)

    def _unreachable(self, why: str) -> None:
        """Said once until the broker is reached again: the table and its log go on (the
        lines are published from the log once the broker is back)."""
        if not self._said_unreachable:
            self._said_unreachable = True
            self.say(
                f"bridge: broker {self.broker.host}:{self.broker.port} unreachable ({why});"
                " the table and its log go on, published once it is back"
            )

    def run(self, follow: bool = True) -> None:
        f = None
        while f is None:
            f = self._open_log()
            if f is None:
                if not follow or self.draining.is_set() or self.stop.wait(0.5):
                    return
        state = self._fold_to_cursor(f)
        delay = 0.2
        try:
            while not self.stop.is_set():
                client = self._connect()
                if client is None:
                    self.stop.wait(delay)
                    delay = min(delay * 2, 2.0)
                    continue
                delay = 0.2
                self.say(
                    f"bridge: {self.table} connected, publishing from line {self.acked_line + 1}"
                )
                done = self._publish(client, f, state, follow)
                if done:
                    client.publish(
                        topic(self.table, "presence"),
                        json.dumps({"online": False}),
                        qos=1,
                        retain=True,
                    ).wait_for_publish(2)
                client.disconnect()
                client.loop_stop()
                self._save_cursor()
                if done:
                    return
                if self._replaced:  # a new log at the same path: a new epoch from its line 1
                    self._replaced = False
                    new = self._open_log()
                    if new is not None:
                        f.close()
                        f = new
                        state = self._fold_to_cursor(f)
                    continue
                self.say(f"bridge: {self.table} lost the broker at line {self.acked_line}")
        finally:
            f.close()
            self._save_cursor()

    def _publish(self, client: mqtt.Client, f: IO[bytes], state: TableState, follow: bool) -> bool:
        """Lines to the broker while connected. True: stopped, or (not following) done."""
        ev_topic, st_topic = topic(self.table, "events"), topic(self.table, "state")
        pending: OrderedDict[int, tuple[int, int]] = OrderedDict()  # mid -> line, offset after
        with self._lock:
            self._acked.clear()
        line, off = self.acked_line, self.acked_off
        state_due = True  # a late joiner's snapshot, at once
        last_state = 0.0
        saved = beat = time.monotonic()
        while not self._lost.is_set():
            if self.stop.is_set():
                return True
            sent = 0
            at_end = False  # the log read to its end this round (not stopped by the window)
            if len(pending) < WINDOW:
                at_end = True
                for n, end, ev, why in scan_log(f, off, line, partial=False):
                    if ev is None:
                        if why is None:  # a blank line: nothing to say
                            line, off = n, end
                            continue
                        ev = events.bad(None, None, why, b"")
                    info = client.publish(ev_topic, envelope(self.epoch, n, line, ev), qos=1)
                    if info.rc != mqtt.MQTT_ERR_SUCCESS:
                        return False
                    pending[info.mid] = (n, end)
                    state.feed(n, ev)
                    line, off = n, end
                    self.published += 1
                    sent += 1
                    state_due = True
                    if len(pending) >= WINDOW:
                        at_end = False
                        break
            with self._lock:
                while pending and next(iter(pending)) in self._acked:
                    mid, (self.acked_line, self.acked_off) = pending.popitem(last=False)
                    self._acked.discard(mid)
            now = time.monotonic()
            if state_due and (not sent or now - last_state >= STATE_EVERY_S):
                payload = json.dumps(state.to_dict(), separators=(",", ":"), ensure_ascii=True)
                client.publish(st_topic, payload, qos=1, retain=True)
                state_due, last_state = False, now
            if now - beat >= HEARTBEAT_S:  # there, even when the table is quiet
                beat = now
                client.publish(topic(self.table, "presence"), self._presence(), qos=1, retain=True)
            if now - saved >= 1.0:
                self._save_cursor()
                saved = now
                if not sent and not pending and self._replaced_on_disk(off):
                    self._replaced = True
                    return False
            if (
                (not follow or self.draining.is_set())
                and at_end
                and not pending
                and not sent
                and not state_due
            ):
                return True
            if not sent:
                self.stop.wait(0.01)  # the log is polled: a line waits at most this long
        return False


# --- the scoreboard's side --------------------------------------------------------------------


class Feed:
    """Every table's topics, handed to `on_message(table, what, payload, retained)` (called
    on the client's thread; `retained`: the broker's copy, delivered as we subscribed). A
    persistent session (QoS 1): what the broker held for us while we were away comes when
    we are back. Reconnects by itself. The session's name is the same
    on every start (a new name each time would leave the broker queueing for the old ones):
    two scoreboards on one machine need a --client-id each."""

    def __init__(
        self,
        broker: Broker,
        on_message: Callable[[str, str, bytes, bool], None],
        client_id: str | None = None,
        say: Callable[[str], None] = lambda m: None,
    ):
        self.broker = broker
        self.on_message = on_message
        self.say = say
        self.connected = threading.Event()
        self.client = broker.client(
            client_id or f"plateau-serve-{socket.gethostname()}"[:64], clean=False, reconnect=True
        )
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self._said_unreachable = False  # said once until the broker is reached
        self.client.on_message = self._on_message

    def _on_connect(self, client, userdata, flags, rc, props) -> None:
        if rc.is_failure:
            self.say(f"broker refused: {rc}")
            return
        # the retained states first, so that events come after the state they follow
        client.subscribe(
            [("plateau/+/state", 1), ("plateau/+/presence", 1), ("plateau/+/events", 1)]
            + [("plateau/+/answers", 1)]  # stand-alone tables' answers (club.control)
        )
        self.connected.set()
        self._said_unreachable = False
        self.say(f"connected to the broker at {self.broker.host}:{self.broker.port}")

    def _on_connect_fail(self, client, userdata) -> None:
        if not self._said_unreachable:
            self._said_unreachable = True
            self.say(
                f"broker {self.broker.host}:{self.broker.port} unreachable; the scoreboard"
                " goes on and keeps trying"
            )

    def _on_disconnect(self, client, userdata, flags, rc, props) -> None:
        self.connected.clear()

    def _on_message(self, client, userdata, msg: Any) -> None:
        parts = msg.topic.split("/")
        if len(parts) != 3 or not TABLE.match(parts[1]):
            return
        self.on_message(parts[1], parts[2], msg.payload, bool(msg.retain))

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=5)
        # reconnects by itself: loop_forever(retry_first_connection=True) in a thread
        self._thread = threading.Thread(
            target=self.client.loop_forever, kwargs={"retry_first_connection": True}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self.client.disconnect()
        self._thread.join(5)
