"""Hostile input for the host tools (issue 15): 10,000 fuzzed frames into the real
`plateau log` (through a pty, live view on), 10,000 fuzzed log lines into `plateau replay`,
`plateau index --rebuild` and a restarting `plateau log`, and every JSON type at every field
of every event type (hypothesis). Not one traceback; nothing a board sends drives the
terminal; every line the host writes is a good event.

The fuzzed events start from real ones (a few games of each kind played by the firmware in
this process) and from events made up from the types and fields the host knows, then get
values of every JSON type (huge numbers, deep nesting, control characters, bidirectional
overrides, newlines between tokens), lose fields, change type; raw bytes and broken JSON
come too."""

import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

from conftest import REPORT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plateau import HARDWARE, events
from plateau.fw.link import frame
from plateau.fw.sim.run import play
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate
from plateau.games.weykick.generate import generate as generate_weykick
from plateau.logger import read_log

N = 10_000
TYPES = sorted(
    set(events.SHAPES)
    | {"resumed", "illegal", "corrected", "trick", "bid", "play", "trump", "street", "show"}
    | {"pot", "draw", "button", "cleared", "enrolled", "selftest", "sensor", "sim_end"}
)
FIELDS = sorted(
    {f for shape in events.SHAPES.values() for f in shape}
    | {"game", "rules", "players", "ranking", "totals", "to_act", "series", "id", "uid", "what"}
    | {"boot", "seq", "at", "type"}
)
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def corpus() -> list[dict]:
    """Real events: a short game of each kind played by the firmware, in this process."""
    scripts = [
        "\n".join(generate("classic", 2, seed=3).script.split("\n")[:400]),
        generate_pocha(3, 40, "short", seed=2).script,
        generate_weykick(seed=2, best_of=1, first_to=3).script,
        generate_holdem(3, 2, seed=2).script,
    ]
    out = []
    with tempfile.TemporaryDirectory() as d:
        for i, text in enumerate(scripts):
            path = f"{d}/g{i}.table"
            Path(path).write_text(text + "\n")
            out += play(path, str(HARDWARE), state=f"{d}/flash{i}")
    return out


def value(rng: random.Random, depth: int = 0):
    """Any JSON value, leaning to what breaks code: edges of numbers, control characters,
    long text, nesting (now and then deeper than the host accepts)."""
    k = rng.randrange(12 if depth < 14 else 7)
    if k == 0:
        return None
    if k == 1:
        return rng.choice([True, False])
    if k == 2:
        return rng.choice([0, -1, 1, 7, 2**31, -(2**63), 2**64, 10**30, rng.randrange(-999, 999)])
    if k == 3:
        return rng.choice([0.5, -0.0, 1e308, -1e-300, 3.14])
    if k in (4, 5, 6):
        pieces = ["7H", "R18", "camp", "\x1b[2J", "\n", "\r", "\x00", "\u202e", "\u2028", "é", '"']
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(6)))
        return text if rng.random() < 0.9 else text * rng.randrange(50, 300)
    if k in (7, 8, 9):
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELDS): value(rng, depth + 1) for _ in range(rng.randrange(4))}


class Stream:
    """Boot and numbers as a board sends them, mostly: in order, now and then a jump, a
    repeat, an old number, or a new boot (some of them ids no board would use)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.boot = f"{rng.getrandbits(32):08x}"
        self.seq = 0

    def stamp(self, ev: dict) -> None:
        rng = self.rng
        if rng.random() < 0.01:  # the board restarted
            self.boot = f"{rng.getrandbits(32):08x}"
            self.seq = 0
        ev["boot"] = self.boot if rng.random() > 0.01 else rng.choice(["x" * 40, "../..", ""])
        ev.pop("seq", None)
        ev.pop("at", None)
        r = rng.random()
        if r < 0.7:
            self.seq += 1 if rng.random() < 0.9 else rng.randrange(2, 400)
            ev["seq"] = self.seq
        elif r < 0.8:
            ev["seq"] = max(1, self.seq - rng.randrange(0, 30))
        else:
            ev["at"] = self.seq + rng.randrange(-3, 30)


def fuzzed_event(rng: random.Random, real: list[dict], stream: Stream) -> dict:
    ev = dict(rng.choice(real)) if rng.random() < 0.7 else {"type": rng.choice(TYPES)}
    stream.stamp(ev)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        r = rng.random()
        if r < 0.6:
            ev[rng.choice(FIELDS)] = value(rng)
        elif r < 0.8 and ev:
            ev.pop(rng.choice(sorted(ev)))
        else:
            ev["type"] = rng.choice(TYPES + ["", "X", "move\n", 5])
    return ev


def payload(rng: random.Random, real: list[dict], stream: Stream) -> bytes:
    r = rng.random()
    if r < 0.05:
        return rng.randbytes(rng.randrange(1, 300))
    if r < 0.08:
        return b"[" * rng.randrange(9, 1000)
    ev = fuzzed_event(rng, real, stream)
    text = json.dumps(ev, indent=1 if rng.random() < 0.1 else None, ensure_ascii=rng.random() < 0.5)
    data = text.encode()
    if r < 0.15 and len(data) > 4:
        data = data[: rng.randrange(len(data))]  # broken JSON
    if r > 0.9 and isinstance(ev.get("seq"), int):  # the board's own head
        body = json.dumps({k: v for k, v in ev.items() if k not in ("boot", "seq")})
        head = f'{{"boot":"{ev.get("boot", "?")}","seq":{ev["seq"]},'
        data = head.encode() + body[1:].encode()
    return data


def fuzzed_frames(seed: int) -> tuple[bytes, int]:
    rng = random.Random(seed)
    real = corpus()
    stream = Stream(rng)
    out = bytearray()
    for _ in range(N):
        out += frame.encode(payload(rng, real, stream))
        if rng.random() < 0.05:
            out += rng.randbytes(rng.randrange(1, 40))  # line noise between frames
    return bytes(out), len(real)


def plateau(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, timeout=timeout
    )


def test_10000_fuzzed_frames_through_plateau_log(tmp_path):
    data, real = fuzzed_frames(15)
    # the last frame, of a new boot after the hello a board says when it starts (a boot's
    # events are logged after its hello: hostlink.Receiver)
    end = frame.encode(b'{"boot":"e0d0e0d0","at":0,"type":"hello"}')
    end += frame.encode(b'{"boot":"e0d0e0d0","seq":1,"type":"card","card":"END"}')
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    log = tmp_path / "fuzz.jsonl"
    view, err = tmp_path / "view.txt", tmp_path / "err.txt"
    with open(view, "wb") as v, open(err, "wb") as e:
        host = subprocess.Popen(
            [sys.executable, "-m", "plateau", "log", "--port", os.ttyname(slave), "--log", str(log)]
            + ["--db", str(tmp_path / "fuzz.sqlite")],
            stdout=v,
            stderr=e,
        )
    try:
        todo = memoryview(data + end)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                os.read(master, 65536)  # the host's hellos: read and dropped
            except BlockingIOError:
                pass
            if todo:
                try:
                    todo = todo[os.write(master, todo[:4096]) :]
                except BlockingIOError:
                    time.sleep(0.002)
                continue
            if log.exists() and b'"END"' in log.read_bytes():
                break
            time.sleep(0.05)
        else:
            raise AssertionError("plateau log never got to the last frame")
    finally:
        host.send_signal(signal.SIGINT)
        code = host.wait(60)
        os.close(master)
        os.close(slave)
    stderr = err.read_text(errors="replace")
    assert code == 0 and "Traceback" not in stderr, stderr[-3000:]
    shown = view.read_text(errors="replace")
    assert not CONTROL.search(shown), CONTROL.search(shown)
    lines = log.read_bytes().split(b"\n")[:-1]
    assert all(events.parse(line)[0] is not None for line in lines)
    stats = dict(
        (k, int(n)) for n, k in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", stderr.splitlines()[-1])
    )
    REPORT.append(
        f"fuzz: {N} fuzzed frames ({real} real events as seeds) into plateau log and its live"
        f" view: 0 tracebacks; {len(lines)} good lines logged, {stats['bad frames']} frames"
        f" refused, {stats['bad events']} numbered events logged as bad, {stats['gaps']} gaps,"
        f" {stats['stale']} frames of ended boots dropped"
    )


def fuzzed_lines(seed: int, good: list[bytes]) -> list[bytes]:
    rng = random.Random(seed)
    real = corpus()
    stream = Stream(rng)
    out = list(good)
    specials = [b"[" * 100_000, b"{" * 5000 + b"}" * 5000, b"x" * 50_000, b"\x00\xff\xfe", b"\r"]
    while len(out) < len(good) + N:
        r = rng.random()
        if r < 0.3 and good:
            line = bytearray(rng.choice(good))
            for _ in range(rng.randrange(1, 4)):
                i = rng.randrange(len(line) + 1)
                op = rng.random()
                if op < 0.4 and i < len(line):
                    line[i] = rng.randrange(256)
                elif op < 0.7:
                    del line[i:]
                else:
                    line[i:i] = rng.choice([b"[", b'"', b"\\", b"}", b",", b"\x1b"])
            out.append(bytes(line).replace(b"\n", b" "))
        elif r < 0.45 and good:
            out.append(rng.choice(good))  # a line written twice
        elif r < 0.47:
            out.append(rng.choice(specials))
        else:
            ev = fuzzed_event(rng, real, stream)
            out.append(json.dumps(ev, ensure_ascii=rng.random() < 0.5).encode())
    rng.shuffle(out)
    return out


def test_10000_fuzzed_log_lines_through_replay_index_and_a_restarting_logger(tmp_path):
    from plateau.cli import View

    good_log = tmp_path / "good.jsonl"
    good = []
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/g.table"
        Path(path).write_text(generate("classic", 3, seed=8).script)
        for ev in play(path, str(HARDWARE), state=f"{d}/flash"):
            good.append(events.dump(ev).rstrip(b"\n"))
    good_log.write_bytes(b"\n".join(good) + b"\n")
    lines = fuzzed_lines(16, good)
    log = tmp_path / "fuzz.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    runs = [
        plateau("replay", str(log)),
        plateau("replay", str(log), "--json"),
        plateau("index", "--rebuild", str(log), "--db", str(tmp_path / "i.sqlite")),
        plateau("index", str(log), "--db", str(tmp_path / "i.sqlite")),
        plateau(
            "log",
            "--port",
            "/dev/nonexistent-plateau",
            "--log",
            str(log),
            "--give-up",
            "0",
            "--db",
            str(tmp_path / "l.sqlite"),
        ),
    ]
    for done in runs:
        assert "Traceback" not in done.stderr + done.stdout, done.stderr[-3000:]
        assert not CONTROL.search(done.stdout)
    assert runs[0].returncode in (0, 1, 2) and runs[2].returncode == 0
    assert "skipped" in runs[0].stderr  # bad lines said and skipped
    # the live view over every line that reads as an event
    import contextlib
    import io

    view = View(as_json=False)
    shown = io.StringIO()
    n = 0
    with contextlib.redirect_stdout(shown):
        for _, ev, _ in read_log(log):
            if ev is not None:
                view.show(ev)
                n += 1
    assert not CONTROL.search(shown.getvalue())
    REPORT.append(
        f"fuzz: {N} fuzzed log lines (among {len(good)} good ones; {n} read as events) into"
        " plateau replay, replay --json, index --rebuild, index, a restarting plateau log and the"
        " live view: 0 tracebacks"
    )


# --- every JSON type at every field of every event type ----------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), c, max_size=4),
    max_leaves=12,
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TYPES),
    st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=6),
    st.sampled_from([None, "seq", "at"]),
    st.integers(0, 300),
)
def test_every_json_type_at_every_field_of_every_event(kind, fields, numbered, n):
    import contextlib
    import io

    from plateau.cli import View
    from plateau.games import Mismatch
    from plateau.games.tock.checker import TockChecker
    from plateau.hostlink import Receiver
    from plateau.logger import Logger

    ev = dict(fields, type=kind, boot="c0ffee00")
    for key in ("seq", "at"):
        ev.pop(key, None)
    if numbered:
        ev[numbered] = n
    rx = Receiver()
    got = rx.take(json.dumps(ev).encode(), 0.0)
    with tempfile.TemporaryDirectory() as d:
        log = Logger(f"{d}/l.jsonl", f"{d}/l.sqlite")
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown):
            for view in (View(as_json=False), View(as_json=True)):
                view.game = "tock" if n % 3 == 0 else "holdem"
                for e, _ in got:
                    view.show(e)
        for e, loggable in got:
            if loggable:
                log.write(e)
        log.close()
        for _, e, _ in read_log(f"{d}/l.jsonl"):
            assert e is not None
            try:
                TockChecker().feed(e)
            except Mismatch:
                pass
    assert not CONTROL.search(shown.getvalue())
