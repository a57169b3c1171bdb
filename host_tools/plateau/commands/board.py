"""Talking to a board (or a simulated one, `plateau sim --serve`): `plateau send`,
`selftest`, `calibrate`, and `ports` (which serial ports hold a board)."""

from __future__ import annotations

import argparse
import json

from plateau import HARDWARE
from plateau.commands import out_file, seconds
from plateau.errors import NoBoard, UsageError
from plateau.view import say


def send_words() -> str:
    """What `plateau send --help` lists: every command word with its arguments, read from
    the declarations the board checks them by (link/commands.py, games/*/game.py)."""
    from plateau.fw.games import GAMES, declaration
    from plateau.fw.link.commands import TABLE

    def args(decl) -> str:  # an optional setting as key=, the others by position
        return " ".join(f"{n}=" if k[0] == "opt" else n.upper() for n, k, _ in decl)

    lines = [
        "commands (how the board checks them: docs/protocol.md; each game's settings:",
        "docs/scripts.md; its own words: docs/rules/):",
        "  new GAME key=value...   e.g. new tock players=2 rules=classic, new weykick",
        "                          mode=first-to:10, new holdem seats=3, new pocha players=4",
    ]
    for word, decl in TABLE.items():
        if word != "new":
            lines.append(f"  {word} {args(decl)}".rstrip())
    for game in GAMES:
        for word, decl in declaration(game).COMMANDS.items():
            lines.append(f"  {word} {args(decl)}".rstrip() + f"   ({game})")
    lines.append("  e.g. enrol 7H (waits for the tag and says its UID; kept on the board's flash;")
    lines.append("  plateau enrol does a whole deck), enrol cancel, unenrol 04A31922, unenrol all,")
    lines.append("  bet 3 40, bid 2 1; an argument goes by position or by name: enrol card=7H")
    return "\n".join(lines)


def add_send(sub, common) -> None:
    sd = sub.add_parser(
        "send",
        parents=[common.port],
        help="send the table a command: new, undo, snapshot, config, enrol, bets, bids",
        epilog=send_words(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sd.add_argument(
        "--timeout",
        type=seconds(0.1),
        default=None,
        help="seconds to wait for the answer (default 3; for enrol, for the tag: 60)",
    )
    sd.add_argument("words", nargs="+", help="the command, e.g.: new tock players=2 rules=classic")
    sd.set_defaults(func=cmd_send)


def add_wifi(sub, common) -> None:
    wf = sub.add_parser(
        "wifi",
        parents=[common.port],
        help="set a table up once on the club's Wi-Fi and broker (kept on its flash)",
        description="Sets the table up, over its USB port, to publish straight to the club's "
        "broker over Wi-Fi (docs/wifi.md): settings not given keep what the table has. The "
        "two passwords are read from files (or PLATEAU_WIFI_PASSWORD and "
        "PLATEAU_MQTT_PASSWORD, or asked at the terminal), never from the command line, "
        "which other users see; the table keeps them on its flash and says them nowhere. "
        "`plateau wifi off` leaves the network and forgets them; `plateau selftest` shows "
        "where the table stands on it.",
    )
    wf.add_argument("off", nargs="?", choices=("off",), help="leave the network, forget it")
    wf.add_argument("--ssid", help="the network's name")
    wf.add_argument("--broker", metavar="HOST[:PORT]", help="the club's broker (port 1883)")
    wf.add_argument("--table", help="the table's name: its user at the broker, its topics")
    wf.add_argument("--wifi-password-file", help="file holding the network's password")
    wf.add_argument("--password-file", help="file holding the table's password at the broker")
    wf.add_argument(
        "--ca",
        metavar="FILE",
        help="the broker's CA certificate (PEM or DER): the table then speaks TLS to the broker"
        " and checks its certificate (a board with the memory for it: docs/wifi.md, TLS)",
    )
    wf.add_argument(
        "--plain",
        action="store_true",
        help="TLS no more: plain MQTT to the broker (the CA forgotten)",
    )
    wf.add_argument("--timeout", type=seconds(0.1), default=3.0, help="seconds to wait")
    wf.set_defaults(func=cmd_wifi)


CA_PART = 450  # bytes of the CA a command carries (600 characters of base64: a frame is 1 KB)


def ca_parts(path: str) -> list[dict]:
    """The `wifi` commands that hand a table its broker's CA certificate (DER), in parts;
    a PEM file is read to its DER. UsageError says what is wrong with the file."""
    import base64
    import re

    try:
        raw = open(path, "rb").read()  # noqa: SIM115
    except OSError as e:
        raise UsageError(f"--ca: cannot read {path}: {e.strerror}") from None
    pem = re.search(rb"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", raw, re.S)
    if pem:
        try:
            raw = base64.b64decode(b"".join(pem.group(1).split()), validate=True)
        except ValueError:
            raise UsageError(f"--ca: {path}: its PEM certificate is not base64") from None
    if not raw.startswith(b"\x30") or not 100 <= len(raw) <= 8192:
        raise UsageError(f"--ca: {path} is not a certificate (PEM or DER) of at most 8192 bytes")
    return [
        {
            "cmd": "wifi",
            "ca": base64.b64encode(raw[at : at + CA_PART]).decode(),
            "ca-at": at,
            "ca-size": len(raw),
        }
        for at in range(0, len(raw), CA_PART)
    ]


def _secret(path: str | None, env: str, prompt: str, wanted: bool) -> str | None:
    import os
    import sys
    from getpass import getpass

    if path:
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
    if os.environ.get(env):
        return os.environ[env]
    if wanted and sys.stdin.isatty():
        return getpass(prompt) or None
    return None


def cmd_wifi(args: argparse.Namespace) -> int:
    parts = ca_parts(args.ca) if args.ca else []
    if args.plain and (args.ca or args.off):
        raise UsageError("plateau wifi: --plain forgets the CA: not with --ca or off")
    if args.off:
        cmd: dict = {"cmd": "wifi", "do": "off"}
    elif args.plain:
        cmd = {"cmd": "wifi", "do": "plain"}
    else:
        cmd = {"cmd": "wifi"}
        for k in ("ssid", "broker", "table"):
            if getattr(args, k):
                cmd[k] = getattr(args, k)
        new = bool(args.ssid)  # a new network: its password asked for
        wpa = _secret(args.wifi_password_file, "PLATEAU_WIFI_PASSWORD", "network password: ", new)
        secret = _secret(
            args.password_file, "PLATEAU_MQTT_PASSWORD", "broker password: ", bool(args.table)
        )
        if wpa:
            cmd["password"] = wpa
        if secret:
            cmd["secret"] = secret
        if len(cmd) == 1 and not parts:
            raise UsageError("plateau wifi: give --ssid, --broker, --table, --ca (or off)")
    if len(cmd) > 1:
        done = _ask(
            args, cmd, "wifi off" if args.off else "wifi plain" if args.plain else "wifi set up"
        )
        if done:
            return done
    for i, part in enumerate(parts, 1):  # the CA, a part a command, in order
        done = _ask(args, part, f"the broker's CA, part {i} of {len(parts)}")
        if done:
            return done
    return 0


def add_selftest(sub, common) -> None:
    st = sub.add_parser(
        "selftest", parents=[common.port], help="sensors stuck on/off, the reader, the scan rate"
    )
    st.set_defaults(func=cmd_selftest)


def add_calibrate(sub, common) -> None:
    cb = sub.add_parser(
        "calibrate",
        parents=[common.port],
        help="a pawn on each square in turn: check the sensor map",
    )
    cb.add_argument("--squares", help="comma-separated squares (default: every sensor)")
    cb.add_argument("--write", type=out_file, help="write the sensor map found to this file")
    cb.add_argument("--timeout", type=seconds(0.1), default=60.0, help="seconds to wait per square")
    cb.set_defaults(func=cmd_calibrate)


def add_ports(sub, common) -> None:
    pt = sub.add_parser(
        "ports", help="the serial ports, and which look like a board (what --port auto takes)"
    )
    pt.set_defaults(func=cmd_ports)


def _new(words: list[str]) -> dict:
    """`new [GAME] k=v ...` checked as far as the host knows: the game's name, and each
    setting by its own kind. What depends on other settings (a seat up to the players, one
    stack per seat) is the board's to check: it knows the table's kept settings, which a `new`
    that does not give them keeps, where the host knows only the defaults (`new pocha
    dealer=8` on an 8-player table was refused here: adversarial tester's finding 14). The
    board refuses in words what does not agree."""
    from plateau.fw.games import declaration
    from plateau.fw.games.settings import SettingsError, value
    from plateau.fw.sim.words import parse_words

    game = words[1] if len(words) > 1 and "=" not in words[1] else None
    cmd = parse_words([w for i, w in enumerate(words) if i != 1 or game is None])
    if game is None:
        return cmd  # the game played: the board alone knows which
    kinds = {d[0]: d[1] for d in declaration(game).SETTINGS}
    for key, v in cmd.items():
        if key == "cmd":
            continue
        if key == "names":  # who sits where: its form here, the seats by the board's log
            from plateau.fw.link.commands import seat_names

            cmd["names"] = seat_names(v)
            continue
        if key not in kinds:
            raise SettingsError(f"unknown setting {key!r} for {game}; known: {', '.join(kinds)}")
        value(key, kinds[key], v)  # no other setting known: a seat up to 10, any stack count
    return {"cmd": "new", "game": game, **{k: v for k, v in cmd.items() if k != "cmd"}}


def cmd_send(args: argparse.Namespace) -> int:
    from plateau.fw.sim.words import parse_words
    from plateau.ports import resolve

    try:
        cmd = parse_words(args.words) if args.words[:1] != ["new"] else _new(args.words)
    except ValueError as e:
        raise UsageError(str(e)) from None
    port = resolve(args.port)
    if cmd["cmd"] == "enrol" and cmd["card"] != "cancel":  # done once a tag is laid: its UID
        from plateau.enrol import enrol

        got = enrol(port, [cmd["card"]], None, args.baud, args.timeout or 60.0, say)
        return 0 if got else 1
    args.timeout = args.timeout or 3.0
    said = "wifi" if cmd["cmd"] == "wifi" else " ".join(args.words)  # (its words: secrets)
    return _ask(args, cmd, said, port)


def _ask(args: argparse.Namespace, cmd: dict, label: str, port: str | None = None) -> int:
    """Sends `cmd` (an id added), says the board's answer (`label` for what was done)."""
    from plateau.hostlink import HostLink, LinkError
    from plateau.ports import resolve

    port = port or resolve(args.port)
    link = HostLink(port, args.baud, following=False)
    try:
        link.open(hello=False)
    except LinkError as e:
        raise NoBoard(str(e)) from None
    try:
        for ev in link.command(cmd, args.timeout):
            if ev.get("type") == "answer" and ev.get("id") == cmd["id"]:
                if ev.get("ok"):
                    extra = {k: v for k, v in ev.items() if k not in ANSWER_KEYS}
                    done = " ".join(f"{k}={json.dumps(v)}" for k, v in extra.items())
                    say(f"done: {label}" + (f" ({done})" if done else ""))
                    return 0
                say(f"refused: {ev.get('why')}")
                return 1
            if ev.get("type") == "snapshot" and cmd["cmd"] == "snapshot":
                print(json.dumps(ev))
    except LinkError:
        pass
    finally:
        link.close()
    raise NoBoard(f"no answer from {port} within {args.timeout} s")


ANSWER_KEYS = ("type", "id", "ok", "why", "at", "boot", "cmd")


def cmd_selftest(args: argparse.Namespace) -> int:
    from plateau.board_tools import selftest
    from plateau.ports import resolve

    return selftest(resolve(args.port), args.baud)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from plateau.board_tools import calibrate
    from plateau.ports import resolve

    sensors = json.loads((HARDWARE / "sensors.json").read_text())["bits"]
    squares = args.squares.split(",") if args.squares is not None else sensors
    unknown = [s for s in squares if s not in sensors]
    if unknown or not squares:
        raise UsageError(
            f"--squares: no sensor under {', '.join(repr(s) for s in unknown[:5]) or 'nothing'}"
            f" (the squares are {sensors[0]}..{sensors[-1]}, hardware/sensors.json)"
        )
    return calibrate(resolve(args.port), squares, args.write, args.baud, args.timeout)


def cmd_ports(args: argparse.Namespace) -> int:
    import os

    from plateau.ports import listing

    ports = listing()
    for dev, what, board in ports:
        print(f"{dev:<20} {'board  ' if board else '       '}{what}")
    env = os.environ.get("PLATEAU_PORT")
    if env:
        print(f"PLATEAU_PORT={env}: what --port auto takes")
    if not ports and not env:
        print("no serial ports (plateau sim --serve puts a simulated table on one)")
    return 0


def add_enrol(sub, common) -> None:
    from plateau.enrol import DECKS

    en = sub.add_parser(
        "enrol",
        parents=[common.port],
        help="teach the table which tag is which card: one card, or a whole deck",
        description="For each card in turn: lay its tag on the reader; the table says the "
        "tag's UID and keeps it on its own flash (it lasts across resets; a reset in the "
        "middle loses nothing the table confirmed). A tag that is another card already is "
        "refused by the table, which waits on for the right one; `plateau send unenrol 04A31922` "
        "forgets a tag. A copy of the tag map is written here as it goes (--write). "
        "Details: docs/protocol.md, section 8, Enrolment.",
    )
    en.add_argument("cards", nargs="*", help="cards to enrol: 7H, QS, X, es:12B (Spanish)")
    en.add_argument("--deck", choices=sorted(DECKS), help="every card of this deck in turn")
    en.add_argument(
        "--write",
        type=out_file,
        default="enrolled-tags.json",
        help="the tag map file, {uid: card} as in hardware/tags.json (default "
        "enrolled-tags.json; added to when it exists)",
    )
    en.add_argument(
        "--timeout",
        type=seconds(0.1),
        default=60.0,
        help="seconds to wait for each tag (default 60)",
    )
    en.set_defaults(func=cmd_enrol)


def cmd_enrol(args: argparse.Namespace) -> int:
    from plateau.enrol import DECKS, enrol
    from plateau.ports import resolve

    cards = list(args.cards) + (DECKS[args.deck] if args.deck else [])
    if not cards:
        raise UsageError("which cards? plateau enrol 7H QS ..., or --deck french")
    tags = enrol(resolve(args.port), cards, args.write, args.baud, args.timeout)
    got = sorted(set(tags.values()) & set(cards))
    missing = sorted(set(cards) - set(tags.values()))
    print(f"enrol: {len(got)} of {len(set(cards))} cards have a tag; tag map in {args.write}")
    if missing:
        print(f"no tag yet: {' '.join(missing)}")
    return 1 if missing else 0
