"""`plateau`: the host tools. One command, subcommands; see `plateau --help`."""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
from pathlib import Path

from plateau import ROOT
from plateau.events import clean
from plateau.hostlink import DeadLink, HostLink, LinkError
from plateau.logger import LogError, Logger
from plateau.sim import Firmware


def show(ev: dict) -> str:
    """One event as a line a person reads: nothing of the board's text can drive the
    terminal (control characters are replaced)."""
    return clean(_show(ev))


# Weykick's `ignored` events, in words (docs/weykick.md)
IGNORED = {
    "paused": "not counted, the match is paused",
    "break": "not counted, half-time break",
    "over": "not counted, the match is over (undo the last goal, or new)",
    "lockout": "not counted, the goal had not re-armed (a bounce, or too soon after the goal)",
    "both-goals": "not counted, the other goal's sensor sees a ball too (a second ball? a fault?)",
    "at-start": "not counted, the ball was in the goal as the game started",
    "stuck": "its sensor has been on 30 s: a ball left in it, or the sensor stuck on",
}


def _show(ev: dict) -> str:
    kind = ev.get("type", "?")
    rest = {k: v for k, v in ev.items() if k not in ("type", "boot", "seq", "at")}
    num = f"#{ev['seq']:<4}" if "seq" in ev else "     "
    if kind == "heartbeat":
        return f"{num} heartbeat  board up {rest.get('up', 0) / 1000:.1f} s"
    if kind == "hello":
        return (
            f"{num} hello      table {rest.get('table')} firmware {rest.get('fw')}"
            f" boot {ev.get('boot')} game {rest.get('game')}"
        )
    if kind == "gap" and "why" in rest:
        return (
            f"      GAP        events {rest['from']}-{rest['to']} of boot {ev.get('boot')} are"
            f" gone ({rest['why']}): {rest['to'] - rest['from'] + 1} lost"
        )
    if kind == "goal" and "score" in rest:
        sc = rest["score"]
        t = rest.get("match_ms", 0) // 1000
        return (
            f"{num} GOAL       in goal {rest['goal']}: side {rest['side']} scores   "
            f"A {sc.get('A')} - {sc.get('B')} B   ({t // 60}:{t % 60:02d})"
        )
    if kind == "ignored" and "why" in rest:  # Weykick: a ball the table did not count
        why = IGNORED.get(str(rest["why"]), str(rest["why"]))
        out = f" (out {rest['out_ms']} ms)" if "out_ms" in rest else ""
        return f"{num} ignored    ball in goal {rest.get('goal')}: {why}{out}"
    if kind == "withdrawn" and "score" in rest:  # Weykick: undo took back a result
        sc = rest["score"]
        return (
            f"{num} WITHDRAWN  match {rest.get('match')} result (winner"
            f" {rest.get('winner') or 'none'}, A {sc.get('A')} - {sc.get('B')} B):"
            " no longer true after undo"
        )
    if kind == "match_end" and "score" in rest:  # Weykick (Pocha's has a ranking)
        sc = rest["score"]
        return (
            f"{num} match_end  winner {rest.get('winner') or 'none (draw)'}   "
            f"A {sc.get('A')} - {sc.get('B')} B   series {json.dumps(rest.get('series'))}"
        )
    detail = " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())
    return f"{num} {kind:<10} {detail}"


def say(text: str, **kw) -> None:
    """print() for a line that holds anything a board or a log said."""
    print(clean(text), **kw)


def say_board(follower, **kw) -> None:
    """The follower's board, a line at a time (each cleaned like any other)."""
    for line in follower.board().split("\n"):
        say(line, **kw)


class View:
    """What a person (or a script, with --json) sees of the events: one line each, and for
    Tock the board after every move."""

    def __init__(self, as_json: bool, board: bool = True):
        from plateau.follow import Mismatch, TockFollower

        self.as_json = as_json
        self.board = board
        self.follower = TockFollower()
        self.mismatch = Mismatch
        self.game: str | None = None
        self.holdem: dict = {"board": [], "start": {}, "stacks": {}}

    def show(self, ev: dict) -> None:
        if self.as_json:
            print(json.dumps(ev), flush=True)  # ASCII only: escapes every control character
            return
        print(show(ev), flush=True)
        if ev.get("type") in ("hello", "snapshot", "game") and ev.get("game"):
            self.game = ev["game"]
        if self.game == "holdem":
            if ev.get("type") in ("hand_start", "action", "card", "hand_end"):
                self._holdem(ev)
            return
        if self.game != "tock":
            return
        try:
            self.follower.feed(ev)
        except self.mismatch as e:
            say(f"      !! {e}", flush=True)
            return
        if self.board and ev.get("type") in ("move", "undo", "game", "win"):
            say_board(self.follower, flush=True)

    def _holdem(self, ev: dict) -> None:
        """Hold'em's live line: the board, the pot, whose turn, the stacks."""
        kind = ev["type"]
        h = self.holdem
        if kind == "hand_start" and "stacks" in ev:
            start = dict(ev["stacks"])
            for seat, chips in ev.get("blinds", {}).items():
                start[seat] = start.get(seat, 0) + chips
            h.update(board=[], start=start, stacks=dict(ev["stacks"]))
        elif kind == "action" and "seat" in ev and "stack" in ev:
            h["stacks"][ev["seat"]] = ev["stack"]
        elif kind == "card" and "board" in ev:
            h["board"] = ev["board"]
        elif kind == "hand_end" and "stacks" in ev:
            h["stacks"] = dict(ev["stacks"])
        else:
            return
        if not h["start"]:
            return
        pot = sum(h["start"].values()) - sum(h["stacks"].get(s, 0) for s in h["start"])
        turn = ev.get("to_act")
        say(
            f"      board {' '.join(h['board']) or '-'} | pot {pot} | "
            + (f"to act: seat {turn} | " if turn else "")
            + "stacks "
            + " ".join(f"{s}:{n}" for s, n in sorted(h["stacks"].items())),
            flush=True,
        )


def sim_events(link: HostLink, fw: Firmware):
    """The simulated board's events until the simulator ends (its side of the pty closes).
    A simulator slow to start or held up (a loaded machine) looks like a dead link to the
    host: that is waited out on the same port, not taken for the end."""
    if not link.is_open:
        link.open()
    while True:
        try:
            yield from link.events()
            return
        except DeadLink:
            if fw.finished():
                return
            link.revive()
        except LinkError:
            return  # the simulator ended: its side of the pty closed


def cmd_sim(args: argparse.Namespace) -> int:
    from sim.script import ScriptError, parse  # firmware/sim/script.py, shared

    try:
        parse(Path(args.script).read_text())
    except OSError as e:
        print(f"plateau sim: cannot read {args.script}: {e.strerror}", file=sys.stderr)
        return 1
    except ScriptError as e:
        print(f"plateau sim: {args.script}: {e}", file=sys.stderr)
        return 1
    mp = getattr(args, "micropython", None)
    if mp and not (Path(mp).is_file() and os.access(mp, os.X_OK)):
        print(f"plateau sim: {mp} is not a MicroPython this machine can run", file=sys.stderr)
        return 1
    heap = getattr(args, "heap", None)
    if heap and not re.fullmatch(r"[1-9][0-9]*[kKmM]?", heap):
        print(f"plateau sim: --heap {heap}: bytes, e.g. 111936 or 256k", file=sys.stderr)
        return 1
    fw_args = ["--wait-host"] + (["--realtime"] if args.realtime else [])
    fw = Firmware(
        args.script,
        *fw_args,
        interpreter=getattr(args, "micropython", None),
        heap=getattr(args, "heap", None),
    )
    link = HostLink(fw.port)
    view = View(args.json, board=not getattr(args, "quiet_board", False))
    log = Logger(args.log, args.db) if getattr(args, "log", None) else None
    count = 0
    try:
        for ev in sim_events(link, fw):
            if ev["type"] == "sim_end":
                if link.rx.behind():
                    continue  # events still to come: the simulator says sim_end again
                link.send({"cmd": "bye"})
                break
            count += 1
            if log and link.loggable:
                log.write(ev)
            view.show(ev)
    finally:
        link.close()
        if log:
            log.close()
        code = fw.wait()
        err = fw.stderr()
    if code:
        sys.stderr.write(err or f"plateau sim: firmware exited with {code}\n")
        return 1
    if not args.json:
        print(f"-- {count} events, firmware exited cleanly", file=sys.stderr)
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    import signal

    from plateau.hostlink import follow
    from plateau.logger import last_event

    try:
        log = Logger(args.log, args.db)
    except (LogError, OSError, sqlite3.Error) as e:
        print(f"plateau log: {e}", file=sys.stderr)
        return 1
    link = HostLink(args.port, args.baud)
    # a restarted logger asks only for what it missed, and takes no late frame of a boot
    # that ended before
    link.boot, link.seq, earlier = last_event(args.log)
    for boot in earlier:
        link.rx.retired[boot] = 0
    view = View(args.json)
    tell = (lambda m: print(m, file=sys.stderr)) if args.json else print
    tell(f"logging {args.port} to {args.log} (index {args.db}); Ctrl-C to stop")

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # `kill` ends it as cleanly as Ctrl-C
    try:
        for ev in follow(link, say=tell, give_up_s=args.give_up):
            if link.loggable:
                log.write(ev)
            view.show(ev)
    except KeyboardInterrupt:
        pass
    finally:
        log.close()
        print(
            f"plateau log: {log.written} lines written; link: {link.stats.line()}", file=sys.stderr
        )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from plateau.follow import Mismatch, TockFollower
    from plateau.logger import Repeats, read_log

    f = TockFollower()
    repeats = Repeats()
    n = bad_lines = repeated = 0
    try:
        for line, ev, why in read_log(args.log):
            if ev is None:
                bad_lines += 1
                if bad_lines <= 20:
                    say(f"plateau replay: {args.log} line {line}: {why}; skipped", file=sys.stderr)
                continue
            if repeats.seen(ev):
                repeated += 1  # the same event written twice: taken once
                continue
            n += 1
            try:
                f.feed(ev)
            except Mismatch as e:
                say(f"line {line} (event #{ev.get('seq')} {ev.get('type')}) does not follow: {e}")
                return 1
    except OSError as e:
        print(f"plateau replay: cannot read {args.log}: {e.strerror}", file=sys.stderr)
        return 2
    if f.pos is None and not f.unchecked:
        print(
            f"plateau replay: {args.log} holds no Tock game (is it a Plateau log?)", file=sys.stderr
        )
        return 2
    if args.json:
        print(json.dumps(f.pos.to_dict() if f.pos else None))
        return 0
    print(
        f"replayed {n} events ({bad_lines} bad lines skipped, {repeated} repeated lines"
        " dropped): every move checked follows the rules"
    )
    for what in f.unchecked:
        say(f"  {what}")
    if f.pos is None:
        print("  the end of the log comes after lost events: no final position to show")
        return 0
    say_board(f)
    print(f.pos.dumps())
    return 0


def cmd_chaos(args: argparse.Namespace) -> int:
    from plateau import chaos

    return chaos.main(args)


def cmd_index(args: argparse.Namespace) -> int:
    from plateau.logger import Index

    if not Path(args.log).exists():
        print(f"plateau index: {args.log} does not exist", file=sys.stderr)
        return 2
    try:
        index = Index(args.db, args.log)
        if args.rebuild:
            index.rebuild()
        else:
            index.catch_up()
        rows = index.games()
        unindexed = index.unindexed
        index.close()
    except (OSError, sqlite3.Error) as e:
        print(f"plateau index: {args.db}: {e}", file=sys.stderr)
        return 1
    for gid, game, rules, players, moves, winner, first, last in rows:
        say(
            f"game {gid}: {game} {rules or ''} {players or '?'} players, {moves} moves,"
            f" winner {winner or '-'}  (lines {first}-{last})"
        )
    print(
        f"{len(rows)} games in {args.log}"
        + (f" ({unindexed} more not indexed)" if unindexed else "")
    )
    return 0


def cmd_send(args: argparse.Namespace) -> int:
    from link.commands import parse_words

    try:
        cmd = parse_words(args.words)
    except ValueError as e:
        print(f"plateau send: {e}", file=sys.stderr)
        return 2
    link = HostLink(args.port, args.baud, following=False)
    link.open(hello=False)
    try:
        for ev in link.command(cmd, args.timeout):
            if ev.get("type") == "answer" and ev.get("id") == cmd["id"]:
                if ev.get("ok"):
                    print(f"done: {' '.join(args.words)}")
                    return 0
                say(f"refused: {ev.get('why')}")
                return 1
            if ev.get("type") == "snapshot" and cmd["cmd"] == "snapshot":
                print(json.dumps(ev))
    except LinkError:
        pass
    finally:
        link.close()
    print(f"plateau send: no answer from {args.port} within {args.timeout} s", file=sys.stderr)
    return 1


def cmd_gen(args: argparse.Namespace) -> int:
    from games.settings import SettingsError, check
    from plateau.gen import generate, generate_holdem, generate_pocha, generate_weykick

    players = args.players if args.players is not None else (3 if args.game == "holdem" else 4)
    given = {
        "tock": {"players": players, "rules": args.rules},
        "pocha": {"players": players, "deck": args.deck, "schedule": args.schedule},
        "holdem": {"seats": players},
        "weykick": {},
    }.get(args.game, {})
    try:  # the settings the game's table line will hold, checked as the board checks them
        check(args.game, given)
    except SettingsError as e:
        print(f"plateau gen: {e}", file=sys.stderr)
        return 2
    args.players = players
    if not 0 <= args.mess <= 1:
        print(f"plateau gen: --mess is a share of goals, 0 to 1, not {args.mess}", file=sys.stderr)
        return 2
    if args.game in ("holdem", "weykick"):
        if args.game == "holdem":
            session = generate_holdem(seats=players, seed=args.seed, pace=args.pace)
            script = session.script
            summary = f"{len(session.hands)} hands, stacks {session.hands[-1]['stacks']}"
        else:
            series = generate_weykick(seed=args.seed, pace=args.pace, mess=args.mess)
            script = series.script
            summary = f"{len(series.matches)} matches, winner {series.winner}"
        if args.output:
            Path(args.output).write_text(script)
            print(f"{summary} -> {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(script)
        return 0
    if args.game == "pocha":
        pocha = generate_pocha(args.players, args.deck, args.schedule, args.seed, args.pace)
        if args.output:
            Path(args.output).write_text(pocha.script)
            print(
                f"{len(pocha.hands)} hands, ranking {pocha.ranking} -> {args.output}",
                file=sys.stderr,
            )
        else:
            sys.stdout.write(pocha.script)
        return 0
    game = generate(args.rules, args.players, args.seed, noise=args.noise, pace=args.pace)
    if args.output:
        Path(args.output).write_text(game.script)
        print(
            f"{len(game.moves)} moves, {len(game.discards)} discards, winner "
            f"{game.winner} -> {args.output}",
            file=sys.stderr,
        )
    else:
        sys.stdout.write(game.script)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    import tempfile

    from plateau.gen import generate

    game = generate("classic", 4, seed=args.seed)
    work = Path(tempfile.mkdtemp(prefix="plateau-demo-"))
    script = work / "game.table"
    script.write_text(game.script)
    log, db = work / "game.jsonl", work / "games.sqlite"
    print(
        f"Simulated table: a generated classic game for 4 (seed {args.seed}, "
        f"{len(game.moves)} moves) played through the firmware under micropython"
    )
    code = cmd_sim(
        argparse.Namespace(script=str(script), json=False, realtime=False, log=str(log), db=str(db))
    )
    if code:
        return code
    print(f"\nThe log: {log} ({sum(1 for _ in open(log))} events), index {db}")
    print(f"Its replay (plateau replay {log}):")
    return cmd_replay(argparse.Namespace(log=str(log), json=False))


def cmd_deploy(args: argparse.Namespace) -> int:
    from plateau import deploy

    return deploy.deploy(args.port, args.board, dry_run=args.dry_run, modules=not args.frozen)


def cmd_firmware(args: argparse.Namespace) -> int:
    from plateau.firmware import firmware

    return firmware(args.board, args.variant, args.micropython_src, args.port, args.dry_run)


def cmd_selftest(args: argparse.Namespace) -> int:
    from plateau.board_tools import selftest

    return selftest(args.port, args.baud)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from plateau.board_tools import calibrate

    squares = (
        args.squares.split(",")
        if args.squares
        else json.loads((ROOT / "hardware" / "sensors.json").read_text())["bits"]
    )
    return calibrate(args.port, squares, args.write, args.baud, args.timeout)


def cmd_build(args: argparse.Namespace) -> int:
    from plateau.build import build

    n = build(verbose=True)
    print(f"mpy-cross: {n} firmware modules compiled")
    return 0


def cmd_size(args: argparse.Namespace) -> int:
    from plateau.deploy import BUILD, deployed_files

    if not BUILD.exists():
        print("plateau size: build/mpy is missing; run `make mpy` first", file=sys.stderr)
        return 1
    total = 0
    for rel in deployed_files():
        n = (BUILD / rel).stat().st_size
        total += n
        print(f"{n:7d}  {rel}")
    print(f"{total:7d}  total .mpy deployed to the board (boot.py and main.py go as source)")
    sim = sum(f.stat().st_size for f in (BUILD / "sim").rglob("*.mpy"))
    print(f"{sim:7d}  simulator only (firmware/sim, never deployed)")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["resets"]:  # its own options and help (plateau/resets.py)
        from plateau import resets

        return resets.main(argv[1:])
    p = parser()
    args = p.parse_args(argv)
    try:
        return args.func(args)
    except LinkError as e:
        print(f"plateau: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `plateau ... | head`: the reader has had enough
        sys.stderr.close()
        return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="plateau",
        description="Plateau smart table host tools",
        epilog="Documentation: docs/README.md in the repository (the games' rules, table "
        "scripts, the serial link, the hardware).",
    )
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("sim", help="play a table script through the firmware under micropython")
    s.add_argument("script", help="table script (the format: docs/scripts.md)")
    s.add_argument("--json", action="store_true", help="print events as JSON lines")
    s.add_argument("--realtime", action="store_true", help="run at the speed of the script")
    s.add_argument("--log", help="also write the events to this JSON-lines file")
    s.add_argument("--db", help="and index its games in this SQLite file")
    s.add_argument(
        "--micropython",
        metavar="PATH",
        help="the MicroPython to run the firmware on (default: the venv's 64-bit one); "
        "build/mp32/micropython (make mp32) is the 32-bit one with the firmware frozen in",
    )
    s.add_argument(
        "--heap",
        metavar="N",
        help="its heap (-X heapsize), e.g. 111936: a plain ESP32's (default: 256k)",
    )
    s.set_defaults(func=cmd_sim)

    lg = sub.add_parser("log", help="log a table: live view, JSON lines, SQLite index")
    lg.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0")
    lg.add_argument("--baud", type=int, default=115200)
    lg.add_argument("--log", default="plateau-log.jsonl", help="JSON-lines file (appended)")
    lg.add_argument("--db", default="plateau-games.sqlite", help="SQLite index of the games")
    lg.add_argument("--json", action="store_true", help="print events as JSON lines")
    lg.add_argument(
        "--give-up",
        type=float,
        default=None,
        help="stop after this many seconds without a link (default: never)",
    )
    lg.set_defaults(func=cmd_log)

    rp = sub.add_parser("replay", help="re-check a logged game with the rules")
    rp.add_argument("log", help="a JSON-lines log written by plateau log or plateau sim --log")
    rp.add_argument("--json", action="store_true", help="print only the final position")
    rp.set_defaults(func=cmd_replay)

    sd = sub.add_parser("send", help="send a command: new, undo, snapshot, config, enrol")
    sd.add_argument("--port", required=True)
    sd.add_argument("--baud", type=int, default=115200)
    sd.add_argument("--timeout", type=float, default=3.0)
    sd.add_argument("words", nargs="+", help="e.g.: new tock players=2 rules=classic")
    sd.set_defaults(func=cmd_send)

    d = sub.add_parser("demo", help="a simulated table, no hardware needed")
    d.add_argument("--seed", type=int, default=1, help="which generated game to play")
    d.set_defaults(func=cmd_demo)

    g = sub.add_parser("gen", help="write a random legal game of any of the four as a table script")
    # choices and ranges: the games' declared settings (firmware/games/*/settings.py)
    g.add_argument("--game", default="tock", help="tock, pocha, holdem or weykick")
    g.add_argument("--rules", default="classic", help="Tock: classic, king-exit, toc-fr")
    g.add_argument("--deck", type=int, default=40, help="Pocha's deck: 40 or 48")
    g.add_argument("--schedule", default="default", help="Pocha: default, short or full")
    g.add_argument(
        "--players",
        type=int,
        default=None,
        help="Tock: 2-4 (4); Pocha: 3, 4, 5, 6 or 8 (4); Hold'em: seats 2-10 (3)",
    )
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--noise", type=float, default=0.02, help="chance of a sensor glitch per action")
    g.add_argument("--pace", type=int, default=150, help="ms between hand actions")
    g.add_argument(
        "--mess",
        type=float,
        default=0.0,
        help="Weykick: share of goals (0-1) followed by a table incident that is no goal"
        " (docs/weykick.md); the script is then timed to the ms",
    )
    g.add_argument("-o", "--output", help="file to write (default: stdout)")
    g.set_defaults(func=cmd_gen)

    dp = sub.add_parser("deploy", help="copy the firmware to a board with mpremote and reset it")
    dp.add_argument("--port", required=True, help="serial port of the board, e.g. /dev/ttyUSB0")
    dp.add_argument(
        "--board",
        default="esp32",
        choices=["esp32", "esp32s3"],
        help="which pin map goes to the board as hardware/pinmap.json (default esp32)",
    )
    dp.add_argument("--dry-run", action="store_true", help="print the mpremote commands only")
    dp.add_argument(
        "--frozen",
        action="store_true",
        help="main.py and the hardware maps only: the board's image has the firmware frozen in",
    )
    dp.set_defaults(func=cmd_deploy)

    fw = sub.add_parser(
        "firmware", help="build an ESP32 image with the firmware frozen in, and flash it"
    )
    fw.add_argument("--board", default="esp32", help="esp32 (the reference) or esp32s3")
    fw.add_argument("--variant", help="MicroPython's BOARD_VARIANT, e.g. SPIRAM_OCT (S3 N8R2)")
    fw.add_argument("--micropython-src", metavar="DIR", help="a MicroPython source tree (v1.29)")
    fw.add_argument("--port", help="flash it to the board on this serial port")
    fw.add_argument("--dry-run", action="store_true", help="print the commands only")
    fw.set_defaults(func=cmd_firmware)

    st = sub.add_parser("selftest", help="sensors stuck on/off, the reader, the scan rate")
    st.add_argument("--port", required=True)
    st.add_argument("--baud", type=int, default=115200)
    st.set_defaults(func=cmd_selftest)

    cb = sub.add_parser("calibrate", help="a pawn on each square in turn: check the sensor map")
    cb.add_argument("--port", required=True)
    cb.add_argument("--baud", type=int, default=115200)
    cb.add_argument("--squares", help="comma-separated squares (default: every sensor)")
    cb.add_argument("--write", help="write the sensor map found to this file")
    cb.add_argument("--timeout", type=float, default=60.0, help="seconds to wait per square")
    cb.set_defaults(func=cmd_calibrate)

    from plateau.chaos import GAMES, MAX_CUT_S

    ch = sub.add_parser(
        "chaos", help="whole simulated games through a hostile serial line; what reached the log"
    )
    ch.add_argument("--games", type=int, default=1, help="games of each kind (default 1)")
    ch.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    ch.add_argument("--seed", type=int, default=0, help="first seed: games and faults follow it")
    ch.add_argument("--jobs", type=int, default=2, help="games played at once")
    ch.add_argument("--speed", type=float, help="table seconds per real second (default: per game)")
    ch.add_argument(
        "--max-cut", type=float, default=MAX_CUT_S, help="longest cut or unplug, table seconds"
    )
    ch.add_argument("--json", help="also write the totals to this file")
    ch.add_argument("--keep", help="keep each game's files (script, journal, log) in this folder")
    ch.set_defaults(func=cmd_chaos)

    ix = sub.add_parser("index", help="the games of a log, from its SQLite index")
    ix.add_argument("log", help="a JSON-lines log written by plateau log or plateau sim --log")
    ix.add_argument("--db", default="plateau-games.sqlite", help="its SQLite index")
    ix.add_argument("--rebuild", action="store_true", help="index the log again from its start")
    ix.set_defaults(func=cmd_index)

    b = sub.add_parser("build", help="compile every firmware module to build/mpy (mpy-cross)")
    b.set_defaults(func=cmd_build)

    sub.add_parser(
        "resets",
        add_help=False,  # its own options: plateau resets --help
        help="kill -9 the simulated board at seeded points of whole games, count what was lost",
    )

    from plateau import holdem, tock

    tock.add_parser(sub)
    holdem.add_parser(sub)

    sz = sub.add_parser("size", help="the .mpy size of each firmware module, and the total")
    sz.set_defaults(func=cmd_size)
    return p


if __name__ == "__main__":
    sys.exit(main())
