"""Putting the firmware on a board: `plateau deploy`, `plateau firmware`, and the compiled
modules it sends: `plateau build`, `plateau size`."""

from __future__ import annotations

import argparse

from plateau.errors import PlateauError


def add_deploy(sub, common) -> None:
    dp = sub.add_parser(
        "deploy",
        parents=[common.port],
        help="copy the firmware to a board with mpremote and reset it",
    )
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
    dp.add_argument(
        "--package-json",
        action="store_true",
        help="write package.json (the firmware as a mip package, for `mpremote mip install` "
        "with no checkout; `make mpy` makes it too) instead of deploying",
    )
    dp.set_defaults(func=cmd_deploy)


def add_firmware(sub, common) -> None:
    fw = sub.add_parser(
        "firmware", help="build an ESP32 image with the firmware frozen in, and flash it"
    )
    fw.add_argument("--board", default="esp32", help="esp32 (the reference) or esp32s3")
    fw.add_argument(
        "--variant", help="MicroPython's BOARD_VARIANT, e.g. SPIRAM_OCT (S3 N8R8: octal PSRAM)"
    )
    fw.add_argument("--micropython-src", metavar="DIR", help="a MicroPython source tree (v1.29)")
    fw.add_argument("--port", help="flash it to the board on this serial port")
    fw.add_argument("--dry-run", action="store_true", help="print the commands only")
    fw.set_defaults(func=cmd_firmware)


def add_build(sub, common) -> None:
    b = sub.add_parser("build", help="compile every firmware module to build/mpy (mpy-cross)")
    b.set_defaults(func=cmd_build)


def add_size(sub, common) -> None:
    sz = sub.add_parser("size", help="the .mpy size of each firmware module, and the total")
    sz.set_defaults(func=cmd_size)


def cmd_deploy(args: argparse.Namespace) -> int:
    from plateau import deploy
    from plateau.ports import resolve

    if args.package_json:
        deploy.PACKAGE_JSON.write_text(deploy.package_json(args.board))
        print(f"{deploy.PACKAGE_JSON.name} written (board {args.board})")
        return 0
    port = args.port if args.dry_run and args.port == "auto" else resolve(args.port)
    return deploy.deploy(port, args.board, dry_run=args.dry_run, modules=not args.frozen)


def cmd_firmware(args: argparse.Namespace) -> int:
    from plateau.firmware import firmware

    return firmware(args.board, args.variant, args.micropython_src, args.port, args.dry_run)


def cmd_build(args: argparse.Namespace) -> int:
    from plateau.build import build, package

    n = build(verbose=True)
    print(f"mpy-cross: {n} firmware modules compiled")
    if package():
        print("firmware/package.json written: the tree's modules changed (commit it)")
    return 0


def cmd_size(args: argparse.Namespace) -> int:
    from plateau.deploy import BUILD, deployed_files, simulator_only

    if not BUILD.exists():
        raise PlateauError("build/mpy is missing; run `make mpy` first")
    total = 0
    for rel in deployed_files():
        n = (BUILD / rel).stat().st_size
        total += n
        print(f"{n:7d}  {rel}")
    print(f"{total:7d}  total .mpy deployed to the board (boot.py and main.py go as source)")
    sim = sum(
        f.stat().st_size for f in BUILD.rglob("*.mpy") if simulator_only(f.relative_to(BUILD))
    )
    print(f"{sim:7d}  simulator only (firmware/sim and games/*/sim.py, never deployed)")
    return 0
