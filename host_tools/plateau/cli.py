"""`plateau`: the host tools. One command, subcommands; see `plateau --help`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from plateau.hostlink import HostLink, LinkError
from plateau.sim import Firmware


def show(ev: dict) -> str:
    """One event as a line a person reads."""
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
    detail = " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())
    return f"{num} {kind:<10} {detail}"


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
    fw_args = ["--wait-host"] + (["--realtime"] if args.realtime else [])
    fw = Firmware(args.script, *fw_args)
    link = HostLink(fw.port)
    count = 0
    try:
        link.open()
        for ev in link.events():
            if ev["type"] == "sim_end":
                link.send({"cmd": "bye"})
                break
            count += 1
            print(json.dumps(ev) if args.json else show(ev), flush=True)
    except LinkError:
        pass  # the simulator ended: its side of the pty closed
    finally:
        link.close()
        code = fw.wait()
        err = fw.stderr()
    if code:
        sys.stderr.write(err or f"plateau sim: firmware exited with {code}\n")
        return 1
    if not args.json:
        print(f"-- {count} events, firmware exited cleanly", file=sys.stderr)
    return 0


def cmd_gen(args: argparse.Namespace) -> int:
    from plateau.gen import generate

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
    with tempfile.NamedTemporaryFile("w", suffix=".table", delete=False) as f:
        f.write(game.script)
    print(
        f"Simulated table: a generated classic game for 4 (seed {args.seed}, "
        f"{len(game.moves)} moves) played through the firmware under micropython"
    )
    return cmd_sim(argparse.Namespace(script=f.name, json=False, realtime=False))


def cmd_deploy(args: argparse.Namespace) -> int:
    from plateau import deploy

    return deploy.deploy(args.port, dry_run=args.dry_run)


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
    print(f"{total:7d}  total .mpy deployed to the board (main.py goes as source)")
    sim = sum(f.stat().st_size for f in (BUILD / "sim").rglob("*.mpy"))
    print(f"{sim:7d}  simulator only (firmware/sim, never deployed)")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="plateau", description="Plateau smart table host tools")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("sim", help="play a table script through the firmware under micropython")
    s.add_argument("script", help="table script (see ../shared/specs/scenario.md)")
    s.add_argument("--json", action="store_true", help="print events as JSON lines")
    s.add_argument("--realtime", action="store_true", help="run at the speed of the script")
    s.set_defaults(func=cmd_sim)

    d = sub.add_parser("demo", help="a simulated table, no hardware needed")
    d.add_argument("--seed", type=int, default=1, help="which generated game to play")
    d.set_defaults(func=cmd_demo)

    g = sub.add_parser("gen", help="write a random legal Tock game as a table script")
    g.add_argument("--rules", default="classic", choices=["classic", "king-exit", "toc-fr"])
    g.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--noise", type=float, default=0.02, help="chance of a sensor glitch per action")
    g.add_argument("--pace", type=int, default=150, help="ms between hand actions")
    g.add_argument("-o", "--output", help="file to write (default: stdout)")
    g.set_defaults(func=cmd_gen)

    dp = sub.add_parser("deploy", help="copy the firmware to a board with mpremote and reset it")
    dp.add_argument("--port", required=True, help="serial port of the board, e.g. /dev/ttyUSB0")
    dp.add_argument("--dry-run", action="store_true", help="print the mpremote commands only")
    dp.set_defaults(func=cmd_deploy)

    b = sub.add_parser("build", help="compile every firmware module to build/mpy (mpy-cross)")
    b.set_defaults(func=cmd_build)

    from plateau import tock

    tock.add_parser(sub)

    sz = sub.add_parser("size", help="the .mpy size of each firmware module, and the total")
    sz.set_defaults(func=cmd_size)

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


if __name__ == "__main__":
    sys.exit(main())
