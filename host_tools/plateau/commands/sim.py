"""The simulated table: `plateau sim` (a table script through the firmware under
MicroPython) and `plateau demo` (a generated game, no hardware needed)."""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
from pathlib import Path

from plateau.commands import SEED, Bounded, in_file, out_file, out_folder, seconds, whole
from plateau.errors import PlateauError, UsageError
from plateau.hostlink import DeadLink, HostLink, LinkError
from plateau.sim import Firmware


def add_sim(sub, common) -> None:
    s = sub.add_parser(
        "sim",
        parents=[common.json, common.view],
        help="play a table script through the firmware under micropython",
        description="Play a table script through the real firmware under MicroPython, the "
        "sensors, the reader and the USB link simulated, and print what the table says. The "
        "script format, with an example of each game: docs/scripts.md.",
    )
    s.add_argument(
        "script",
        nargs="?",
        type=in_file,
        help="table script (the format: docs/scripts.md); with --serve it may be left out",
    )
    s.add_argument(
        "--serve",
        action="store_true",
        help="put the simulated table on a serial port of its own (a pty, printed) for "
        "plateau log/send/selftest/calibrate or any serial tool, in real time, playing the "
        "script (or idle: a Tock table for 4) until Ctrl-C (or a `repl` command, which ends "
        "it)",
    )
    s.add_argument("--realtime", action="store_true", help="run at the speed of the script")
    s.add_argument("--log", type=out_file, help="also write the events to this JSON-lines file")
    s.add_argument("--db", type=out_file, help="and index its games in this SQLite file")
    s.add_argument(
        "--quiet-board",
        action="store_true",
        help="no Tock board drawn after each move (the same as --draw none)",
    )
    s.add_argument(
        "--micropython",
        metavar="PATH",
        help="the MicroPython to run the firmware on (default: the venv's 64-bit one); "
        "build/mp32/micropython (make mp32) is the 32-bit one with the firmware frozen in",
    )
    s.add_argument(
        "--heap",
        metavar="N",
        type=heap_size,
        help="its heap (-X heapsize) in bytes, k or m, from "
        f"{HEAP_MIN // 1024}k to {HEAP_MAX >> 20}m, e.g. 111936: a plain ESP32's "
        "(default: 256k)",
    )
    s.add_argument(
        "--ticks-start",
        metavar="N",
        type=TICKS,
        default=None,
        help="what the board's tick counter (time.ticks_ms) reads when the table starts, "
        f"from {-TICKS_TOP - 1} to {TICKS_TOP} (default 0, just powered up); it wraps at "
        f"{TICKS_TOP} as an ESP32's does, so -5000 plays the game across the wrap 5 s in, "
        "as on a board up 12.4 days",
    )
    s.add_argument(
        "--wifi",
        metavar="HOST:PORT",
        help="a stand-alone table: set up over its USB link with the `wifi` command (a "
        "simulated network, this broker, --table's name, the broker password from "
        "--password-file or PLATEAU_MQTT_PASSWORD), it publishes its events straight to the "
        "broker as plateau bridge lays them out (docs/wifi.md); the run ends once the broker "
        "has them all",
    )
    s.add_argument(
        "--ca",
        metavar="FILE",
        help="with --wifi: the broker's CA certificate (PEM or DER): the table speaks TLS to "
        "the broker and checks its certificate (as plateau wifi --ca)",
    )
    s.set_defaults(func=cmd_sim)


# The heap a simulated table may be given: below HEAP_MIN no table starts, even on the
# 32-bit build with the firmware frozen in (measured: `table weykick` starts in 64k there,
# `table tock` needs 72k, nothing starts in 56k; the 64-bit build needs more), and a heap the
# unix port cannot allocate crashes it (-X heapsize=99999999999: a segfault, exit -11; 1024m
# runs on both builds). A game that outgrows a heap in range is told so (play).
HEAP_MIN = 64 * 1024
HEAP_MAX = 1 << 30
TICKS_TOP = (1 << 30) - 1  # an ESP32's time.ticks_ms() reads 0 .. 2**30 - 1 (firmware/clock.py)
TICKS = Bounded(int, -TICKS_TOP - 1, TICKS_TOP, "a tick count")


def heap_size(text: str) -> int:
    """An argparse `type` for --heap: bytes, or k or m of them, in HEAP_MIN .. HEAP_MAX."""
    m = re.fullmatch(r"([1-9][0-9]{0,12})([kKmM]?)", text)
    size = int(m.group(1)) << {"": 0, "k": 10, "m": 20}[m.group(2).lower()] if m else 0
    if not HEAP_MIN <= size <= HEAP_MAX:
        raise argparse.ArgumentTypeError(
            f"{text!r}: bytes, k or m, from {HEAP_MIN // 1024}k to {HEAP_MAX >> 20}m "
            "(111936 is a plain ESP32's)"
        )
    return size


def add_demo(sub, common) -> None:
    d = sub.add_parser("demo", help="a simulated table, no hardware needed")
    d.add_argument("--seed", type=SEED, default=1, help="which generated game to play")
    d.set_defaults(func=cmd_demo)


def sim_events(link: HostLink, fw: Firmware):
    """The simulated board's (event, logged) until the simulator ends (its side of the pty
    closes; HostLink.received).
    A simulator slow to start or held up (a loaded machine) looks like a dead link to the
    host: that is waited out on the same port, not taken for the end."""
    if not link.is_open:
        link.open()
    while True:
        try:
            yield from link.received()
            return
        except DeadLink:
            if fw.finished():
                return
            link.revive()
        except LinkError:
            return  # the simulator ended: its side of the pty closed


def decode(data: bytes) -> str:
    """A script's bytes as text; a line that is not UTF-8 is refused with its number."""
    from plateau.fw.sim.script import ScriptError

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for n, raw in enumerate(data.split(b"\n"), 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ScriptError(n, "not UTF-8 text: a table script is plain text") from None
    raise AssertionError("unreachable: some line did not decode")


def check_script(script: str) -> None:
    from plateau.fw.sim.script import ScriptError, parse  # firmware/sim/script.py, shared

    path = Path(script)
    try:  # checked in full, a `position` line's file too, before the simulator starts
        parse(decode(path.read_bytes()), str(path.resolve().parent))
    except OSError as e:
        raise UsageError(f"cannot read {script}: {e.strerror}") from None
    except ScriptError as e:
        raise UsageError(f"{script}: {e}") from None


def play(
    script: str,
    as_json: bool = False,
    realtime: bool = False,
    log: str | None = None,
    db: str | None = None,
    draw: str = "ring",
    heartbeats: bool = False,
    micropython: str | None = None,
    heap: str | int | None = None,
    ticks_start: int | None = None,
    wifi: dict | None = None,
) -> int:
    """Plays a checked script through the firmware and shows (and logs) its events. `wifi`:
    the `wifi` command's settings (a stand-alone table): the simulated room gets that
    network, and the table is set up with them over its USB link before it plays."""
    from plateau.logger import LogError, Logger
    from plateau.view import View

    view = View(as_json, draw=draw, heartbeats=heartbeats)
    try:  # before the simulator starts: a log that cannot be written leaves nothing running
        logger = Logger(log, db) if log else None
    except (LogError, OSError, sqlite3.Error) as e:
        raise PlateauError(str(e)) from None
    fw_args = ["--wait-host"] + (["--realtime"] if realtime else [])
    if ticks_start is not None:
        fw_args += ["--ticks-start", str(ticks_start)]
    setups: list[dict] = []  # the wifi commands, sent one after the other's answer
    if wifi:
        fw_args += ["--net", wifi["ssid"], wifi["password"]]
        parts = wifi.pop("ca_parts", [])
        setups = [{"cmd": "wifi", "id": "sim-wifi", **wifi}]
        setups += [{**part, "id": f"sim-ca-{i}"} for i, part in enumerate(parts)]
    setup = setups.pop(0) if setups else None
    count = 0
    played = greeted = False  # sim_end: the script was played to its end; the table's hello
    try:
        fw = Firmware(script, *fw_args, interpreter=micropython, heap=heap)
    except BaseException:
        if logger:
            logger.close()
        raise
    link = HostLink(fw.port)
    try:  # whatever happens here, the simulator is stopped (never left running)
        for ev, logged in sim_events(link, fw):
            if setup and ev.get("type") == "hello":
                link.send(setup)  # (before the script plays on: it waited for our hello)
            if setup and ev.get("type") == "answer" and ev.get("id") == setup["id"]:
                if not ev["ok"]:
                    sys.stderr.write(f"plateau sim: wifi refused: {ev.get('why')}\n")
                    link.send({"cmd": "bye"})
                    break
                setup = setups.pop(0) if setups else None
                if setup:
                    link.send(setup)  # the broker's CA, its next part
                continue
            if ev["type"] == "sim_end":
                if link.rx.behind():
                    continue  # events still to come: the simulator says sim_end again
                played = True
                link.send({"cmd": "bye"})
                break
            greeted = greeted or ev["type"] == "hello"
            if "seq" in ev:
                count += 1  # the table's numbered events (link messages are not counted)
            if logger and logged:
                logger.write(ev)
            view.show(ev)
    except LinkError:
        if not fw.finished():
            raise
        # the simulator ended before its port could be opened (its pty went with it): its
        # exit code and its words say why, below
    except BaseException:  # interrupted: the simulator goes now (wait() gives it 10 s)
        fw.stop()
        raise
    finally:
        link.close()
        if logger:
            logger.close()
        code = fw.wait()
        err = fw.stderr()
    what = micropython or "micropython"
    if code:
        if "MemoryError" in err:  # its traceback, then what it means
            sys.stderr.write(
                f"{err}plateau sim: the firmware ran out of its heap "
                f"({heap or 'the default'} bytes): give it more with --heap\n"
            )
        else:
            sys.stderr.write(err or f"plateau sim: {what} exited with {code} and said nothing\n")
        return 1
    if not played:  # it ended cleanly, but not by playing the script: not a good run
        said = "the table never said hello" if not greeted else "it stopped before the end"
        sys.stderr.write(
            f"{err}plateau sim: {what} exited without playing {script} to its end ({said}, "
            f"{count} numbered events): is it a MicroPython that runs the firmware?\n"
        )
        return 1
    if not as_json:
        print(f"-- {count} numbered events, firmware exited cleanly", file=sys.stderr)
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    if args.quiet_board:  # it was read by nothing: the board was drawn anyway
        args.draw = "none"
    if args.script:
        check_script(args.script)
    elif not args.serve:
        raise UsageError("which script? plateau sim SCRIPT (or plateau sim --serve, idle)")
    mp = args.micropython
    if mp and not (Path(mp).is_file() and os.access(mp, os.X_OK)):
        raise UsageError(f"{mp} is not a MicroPython this machine can run")
    if args.ca and not args.wifi:
        raise UsageError("--ca is the broker's CA for --wifi")
    wifi = _wifi(args) if args.wifi else None
    if args.serve:
        if wifi:
            raise UsageError("--wifi plays a script: not with --serve")
        from plateau.serve import serve

        return serve(
            args.script,
            say=lambda m: print(m, flush=True),
            ticks_start=args.ticks_start,
            interpreter=mp,
            heap=args.heap,
        )
    return play(
        args.script,
        args.json,
        args.realtime,
        args.log,
        args.db,
        draw=args.draw,
        heartbeats=args.heartbeats,
        micropython=mp,
        heap=args.heap,
        ticks_start=args.ticks_start,
        wifi=wifi,
    )


def _wifi(args: argparse.Namespace) -> dict:
    """`--wifi`'s settings for the table: a simulated network with a password of its own for
    the run, the broker, the table's name (--table) and its broker password (a file or
    PLATEAU_MQTT_PASSWORD: never the command line, which other users see)."""
    import secrets

    from plateau.club.mqtt import Broker, check_table

    if getattr(args, "mqtt", None):
        raise UsageError("--wifi: the table publishes itself; --mqtt bridges a log: one of them")
    try:
        table = check_table(args.table or "plateau")
        broker = Broker.parse(args.wifi, table, args.password_file)
    except (ValueError, OSError) as e:
        raise UsageError(f"--wifi: {e}") from None
    out: dict = {"ssid": "plateau-sim", "password": "sim-" + secrets.token_urlsafe(9)}
    out.update(broker=f"{broker.host}:{broker.port}", table=table)
    if broker.password:
        out["secret"] = broker.password
    if args.ca:
        from plateau.commands.board import ca_parts

        out["ca_parts"] = ca_parts(args.ca)
    return out


def cmd_demo(args: argparse.Namespace) -> int:
    import tempfile

    from plateau.commands.logs import replay
    from plateau.games.tock.generate import generate

    game = generate("classic", 4, seed=args.seed)
    work = Path(tempfile.mkdtemp(prefix="plateau-demo-"))
    script = work / "game.table"
    script.write_text(game.script)
    log, db = work / "game.jsonl", work / "games.sqlite"
    print(
        f"Simulated table: a generated classic game for 4 (seed {args.seed}, "
        f"{len(game.moves)} moves) played through the firmware under micropython"
    )
    code = play(str(script), log=str(log), db=str(db))
    if code:
        return code
    print(f"\nThe log: {log} ({sum(1 for _ in open(log))} events), index {db}")
    print(f"Its replay (plateau replay {log}):")
    return replay(str(log))


def add_chaos(sub, common) -> None:
    from plateau.chaos import GAMES, MAX_CUT_S

    ch = sub.add_parser(
        "chaos", help="whole simulated games through a hostile serial line; what reached the log"
    )
    ch.add_argument(
        "--games", type=whole(1, 10_000), default=1, help="games of each kind (default 1)"
    )
    ch.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ch.add_argument("--seed", type=SEED, default=0, help="first seed: games and faults follow it")
    ch.add_argument("--jobs", type=whole(1, 64), default=2, help="games played at once")
    ch.add_argument(
        "--speed",
        type=Bounded(float, 0.01, 1000),
        help="table seconds per real second (default: per game)",
    )
    ch.add_argument(
        "--max-cut",
        type=seconds(0, 3600),
        default=MAX_CUT_S,
        help="longest cut or unplug, table seconds",
    )
    ch.add_argument("--json", type=out_file, help="also write the totals to this file")
    ch.add_argument(
        "--keep",
        type=out_folder,
        help="keep each game's files (script, journal, log) in this folder",
    )
    ch.set_defaults(func=cmd_chaos)


def cmd_chaos(args: argparse.Namespace) -> int:
    from plateau import chaos

    return chaos.main(args)


def add_resets(sub, common) -> None:
    # listed here for --help; `plateau resets ...` goes straight to plateau/resets.py's own
    # parser (cli.main), which has its options and help
    sub.add_parser(
        "resets",
        add_help=False,
        help="kill -9 the simulated board at seeded points of whole games, count what was lost "
        "(plateau resets --help)",
    )
