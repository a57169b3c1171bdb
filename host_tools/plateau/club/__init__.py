"""The club: many tables through one MQTT broker, a scoreboard in the browser, players and a
league (docs/club.md). cli.COMMANDS registers its commands (add_bridge, add_serve, ...)."""

from __future__ import annotations

import argparse
import sys

from plateau.commands import in_file, out_file, text_file, whole


def cmd_bridge(args: argparse.Namespace) -> int:
    import signal

    from plateau.club.mqtt import Bridge, Broker

    try:
        broker = Broker.parse(args.mqtt, args.user or args.table, args.password_file)
        bridge = Bridge(args.log, args.table, broker, say=lambda m: print(m, file=sys.stderr))
    except (ValueError, OSError) as e:
        print(f"plateau bridge: {e}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: bridge.stop.set())
    try:
        bridge.run(follow=not args.once)
    except KeyboardInterrupt:
        bridge.stop.set()
    print(
        f"plateau bridge: {bridge.published} lines published, acknowledged up to line"
        f" {bridge.acked_line}, {bridge.connections} connections",
        file=sys.stderr,
    )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from plateau.club.mqtt import check_table
    from plateau.club.server import serve

    try:
        check_table(args.table)
    except ValueError as e:
        print(f"plateau serve: {e}", file=sys.stderr)
        return 2
    return serve(args)


def cmd_players(args: argparse.Namespace) -> int:
    from pathlib import Path

    from plateau.club.league import League
    from plateau.club.mqtt import check_table

    try:
        check_table(args.table)
    except ValueError as e:
        print(f"plateau players: {e}", file=sys.stderr)
        return 2
    if args.url:
        return players_through(args)
    if not args.db:
        print("plateau players: --db FILE (the file itself) or --url URL (the scoreboard)",
              file=sys.stderr)  # fmt: skip
        return 2
    if not Path(args.db).exists():  # a mistyped path is no new database (nor has tables)
        print(
            f"plateau players: no database {args.db} (plateau serve --db makes one)",
            file=sys.stderr,
        )
        return 2
    seats = seat_names(args.seats)
    if seats is None:
        return 2
    league = League(args.db)
    if seats and not league.known(args.table):  # as the operator's page refuses it
        print(
            f"plateau players: no table {args.table} has published to the scoreboard of"
            f" {args.db} (its tables: {', '.join(sorted(league.tables())) or 'none yet'})",
            file=sys.stderr,
        )
        return 2
    try:
        if seats:
            league.seat(args.table, seats, operator())
    except ValueError as e:
        print(f"plateau players: {e}", file=sys.stderr)
        return 2
    if seats:
        print(
            f"plateau players: written to {args.db} directly (audited as {operator()}): the"
            " scoreboard's pages need the operator's token, this command whoever may write"
            " the file",
            file=sys.stderr,
        )
    for seat, name in sorted(league.seats(args.table).items()):
        print(f"{args.table} seat {seat}: {name}")
    return 0


def seat_names(words: list[str]) -> dict[str, str] | None:
    """`SEAT=NAME` words as {seat: name}; None (said on stderr) when one is not of that form."""
    seats = {}
    for word in words:
        seat, eq, name = word.partition("=")
        if not eq:
            print(f"plateau players: {word!r} is not SEAT=NAME", file=sys.stderr)
            return None
        seats[seat] = name
    return seats


def players_through(args: argparse.Namespace) -> int:
    """`plateau players --url`: the names sent to a running scoreboard, as its operator's
    page sends them (the token; a table it knows; its checks and audit), not written to the
    file: what the scoreboard refuses is said in one line, exit 2 (3: no scoreboard there)."""
    import json
    import os
    import urllib.error
    import urllib.request
    from pathlib import Path

    from plateau.club.server import load_token

    base = args.url.rstrip("/")
    seats = seat_names(args.seats)
    if seats is None:
        return 2
    try:
        if seats:
            beside = f"{args.db}.token" if args.db else None
            if args.token_file or os.environ.get("PLATEAU_TOKEN"):
                token, _ = load_token(args.token_file)  # the file, else PLATEAU_TOKEN
            elif beside and Path(beside).exists():  # the one plateau serve keeps (none made)
                token, _ = load_token(beside)
            else:
                print(
                    "plateau players: no operator's token: --token-file F, PLATEAU_TOKEN, or"
                    " --db DB with the DB.token plateau serve keeps beside it",
                    file=sys.stderr,
                )
                return 2
            req = urllib.request.Request(
                f"{base}/api/table/{args.table}/players",
                data=json.dumps({"seats": seats, "by": operator()[:40]}).encode(),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(req, timeout=30) as r:
                named = json.load(r)["seats"]
        else:
            with urllib.request.urlopen(f"{base}/api/table/{args.table}", timeout=30) as r:
                named = json.load(r).get("players", {})
    except urllib.error.HTTPError as e:
        said = " ".join(e.read().decode("utf-8", "replace").split())[:300]
        print(f"plateau players: the scoreboard refused ({e.code}): {said}", file=sys.stderr)
        return 2
    except (urllib.error.URLError, OSError) as e:
        print(f"plateau players: no scoreboard at {args.url}: {e}", file=sys.stderr)
        return 3
    except ValueError as e:  # the token (load_token) or an answer that is not JSON
        print(f"plateau players: {e}", file=sys.stderr)
        return 2
    for seat, name in sorted(named.items()):
        print(f"{args.table} seat {seat}: {name}")
    return 0


def cmd_league(args: argparse.Namespace) -> int:
    from pathlib import Path

    from plateau.club.league import League
    from plateau.events import clean

    if not Path(args.db).exists():  # a mistyped path is no new, empty league
        print(
            f"plateau league: no database {args.db} (plateau serve --db makes one)", file=sys.stderr
        )
        return 2

    s = League(args.db).standings(args.game)
    for i, r in enumerate(s["ratings"], 1):
        print(
            clean(
                f"{i:3d}. {r['player']:<24} {r['rating']:5d}  {r['games']} games, {r['wins']} won"
            )
        )
    print(f"{len(s['ratings'])} players, {len(s['history'])} recent {args.game} results")
    return 0


def operator() -> str:
    """Who the audit names for a command run here: this machine's user."""
    import getpass
    import socket

    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown user"
    return f"{user}@{socket.gethostname()} (plateau command)"


def cmd_results(args: argparse.Namespace) -> int:
    """`plateau results`: the results recorded, each with its verdict; `confirm N` or
    `void N` writes the operator's decision into the SQLite file itself (audited with this
    machine's user): whoever can write the file is the operator here, as the token is on
    the scoreboard's pages."""
    from pathlib import Path

    from plateau.club.league import League
    from plateau.club.mqtt import check_table
    from plateau.club.server import night_bounds
    from plateau.events import clean

    if not Path(args.db).exists():
        print(
            f"plateau results: no database {args.db} (plateau serve --db makes one)",
            file=sys.stderr,
        )
        return 2
    league = League(args.db)
    if args.action:
        what, n = args.action[0], args.action[1:]
        if what not in ("confirm", "void") or len(n) != 1 or not n[0].isdigit():
            print("plateau results: confirm N or void N (N: a result's number)", file=sys.stderr)
            return 2
        try:
            done = league.decide(int(n[0]), what, operator())
        except (LookupError, ValueError) as e:
            print(f"plateau results: {e}", file=sys.stderr)
            return 2
        print(
            f"result {done['id']} (table {done['table']}): {done['before']} -> {done['verdict']}"
            f" (written to {args.db} directly, audited)"
        )
        return 0
    try:
        if args.table:
            check_table(args.table)
    except ValueError as e:
        print(f"plateau results: {e}", file=sys.stderr)
        return 2
    bounds = night_bounds(args.night) if args.night else (None, None)
    if bounds is None:
        print(f"plateau results: --night {args.night!r}: YYYY-MM-DD", file=sys.stderr)
        return 2
    rows = league.results(args.game, args.table, *bounds)
    for r in rows:
        who = {s: r["players"].get(s) or s for s in r["seats"]}
        places = " > ".join(" & ".join(who.get(s, s) for s in g) for g in r["ranking"])
        why = f": {r['why']}" if r["why"] else ""
        game = r["game"] or "?"
        print(clean(f"{r['id']:4d}  {r['table']:<12} {game:<8} {places}  [{r['verdict']}{why}]"))
    print(f"{len(rows)} results")
    return 0


def names_clash(tables: list[str]) -> None:
    """ValueError when two tables would be one user (a name given twice, or twice but for
    its case: one page each, a muddle at the bar) or a table would be the scoreboard's own
    user (READER: it would hold the scoreboard's password and its topics' rights)."""
    from plateau.club.broker import READER

    seen: dict[str, str] = {}
    for t in tables:
        if t.lower() == READER:
            raise ValueError(
                f"a table may not be named {t!r}: {READER} is the scoreboard's user (it would"
                " share its password); name the table otherwise"
            )
        if t.lower() in seen:
            said = "twice" if seen[t.lower()] == t else f"as {seen[t.lower()]!r} and {t!r}"
            raise ValueError(f"table {t!r} is named {said}: each table needs a name of its own")
        seen[t.lower()] = t


def cmd_broker(args: argparse.Namespace) -> int:
    """A club's broker set up as docs/club.md says: passwords, no anonymous clients, each table
    writing its own topics only, the scoreboard reading."""
    import os
    import secrets
    from pathlib import Path

    from plateau.club.broker import READER, write_config
    from plateau.club.mqtt import check_table

    try:
        tables = [check_table(t) for t in args.tables]
        names_clash(tables)
    except ValueError as e:
        print(f"plateau club-broker: {e}", file=sys.stderr)
        return 2
    folder = Path(args.dir).resolve()
    users = {u: secrets.token_urlsafe(12) for u in [*tables, READER]}
    try:
        write_config(folder, args.port, users, host=args.host)
    except ValueError as e:  # a folder the broker could not reach
        print(f"plateau club-broker: {e}", file=sys.stderr)
        return 1
    except (OSError, FileNotFoundError) as e:
        print(f"plateau club-broker: {e} (is mosquitto installed?)", file=sys.stderr)
        return 1
    for user, password in users.items():
        f = folder / f"{user}.password"
        f.write_text(password + "\n")
        os.chmod(f, 0o600)
    os.chmod(folder / "passwd", 0o600)
    print(f"broker set up in {folder}: mosquitto -c {folder / 'mosquitto.conf'}")
    print(f"each user's password is in {folder}/<user>.password (users: {', '.join(users)})")
    return 0


def with_bridge(parser: argparse.ArgumentParser) -> None:
    """`--mqtt HOST:PORT` for a command that writes a log (`plateau log`, `plateau sim`): a
    bridge publishes the log as it is written, in a thread beside the command, and is
    drained when the command ends. Added here rather than in each command so the club
    stays one module (cli.py registers it with one line)."""
    parser.add_argument("--mqtt", metavar="HOST:PORT", help="publish the log to this broker")
    parser.add_argument("--table", help="with --mqtt: the table's name (default: plateau)")
    parser.add_argument("--mqtt-user", help="with --mqtt: broker user (default: the table's name)")
    parser.add_argument(
        "--password-file", type=text_file, help="with --mqtt: file holding the broker password"
    )
    command = parser.get_default("func")

    def run(args: argparse.Namespace) -> int:
        if not args.mqtt:
            return command(args)
        if not getattr(args, "log", None):
            print("plateau: --mqtt publishes the log: give --log FILE too", file=sys.stderr)
            return 2
        import threading
        from pathlib import Path

        from plateau.club.mqtt import Bridge, Broker

        table = args.table or "plateau"
        try:
            broker = Broker.parse(args.mqtt, args.mqtt_user or table, args.password_file)
            Path(args.log).touch()  # the bridge waits for it; the logger appends to it
            bridge = Bridge(args.log, table, broker, say=lambda m: print(m, file=sys.stderr))
        except (ValueError, OSError) as e:
            print(f"plateau: --mqtt: {e}", file=sys.stderr)
            return 2
        thread = threading.Thread(target=bridge.run, daemon=True)
        thread.start()
        try:
            return command(args)
        finally:
            bridge.draining.set()  # what was logged goes out before we stop
            thread.join(10)
            bridge.stop.set()
            thread.join(5)

    parser.set_defaults(func=run)


# cli.COMMANDS registers each of these (function(sub, common)); add_mqtt comes after log
# and sim, whose parsers it extends.


def add_mqtt(sub, common=None) -> None:
    """`--mqtt` on `plateau log` and `plateau sim`."""
    for name in ("log", "sim"):
        if name in sub.choices:
            with_bridge(sub.choices[name])


def add_bridge(sub, common=None) -> None:
    b = sub.add_parser("bridge", help="publish a table's log to an MQTT broker (the club)")
    b.add_argument(
        "log", type=in_file, help="the table's JSON-lines log (plateau log / plateau sim --log)"
    )
    b.add_argument("--table", required=True, help="the table's name: letters, digits, - or _")
    b.add_argument("--mqtt", required=True, metavar="HOST:PORT", help="the broker")
    b.add_argument("--user", help="broker user (default: the table's name)")
    b.add_argument(
        "--password-file",
        type=text_file,
        help="file holding the broker password (or PLATEAU_MQTT_PASSWORD)",
    )
    b.add_argument("--once", action="store_true", help="publish what the log holds and stop")
    b.set_defaults(func=cmd_bridge)


def add_broker(sub, common=None) -> None:
    cb = sub.add_parser("club-broker", help="write a club's Mosquitto setup (passwords, ACL)")
    cb.add_argument("dir", help="folder for mosquitto.conf, passwd, acl, the passwords")
    cb.add_argument("--tables", nargs="+", required=True, help="the tables' names")
    cb.add_argument(
        "--port", type=whole(1, 65535), default=1883, help="the broker's port (default 1883)"
    )
    cb.add_argument("--host", default="127.0.0.1", help="address to listen on (the club's LAN)")
    cb.set_defaults(func=cmd_broker)


def add_serve(sub, common=None) -> None:
    s = sub.add_parser("serve", help="the club's scoreboard in the browser")
    src = s.add_mutually_exclusive_group()
    src.add_argument("--mqtt", metavar="HOST:PORT", help="every table a broker carries")
    src.add_argument(
        "--log", type=in_file, help="or one table from its log on this machine (no broker)"
    )
    s.add_argument("--table", default="table", help="the table's name with --log")
    s.add_argument(
        "--db", type=out_file, help="SQLite file for players and results (the log's index will do)"
    )
    s.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: this machine only)"
    )
    s.add_argument("--port", type=whole(0, 65535), default=8080, help="0: any free port")
    s.add_argument(
        "--token-file",
        type=text_file,
        help="the operator's token, mode 600 (else PLATEAU_TOKEN, else DB.token beside --db,"
        " made on the first run and kept; without --db, made for the run and printed)",
    )
    s.add_argument(
        "--origin",
        action="append",
        metavar="URL",
        help="another address the pages are opened at (http://scores.club.lan:8080, a proxy):"
        " its pages may use the WebSocket and write; a page of any other site may not",
    )
    s.add_argument("--user", default="club", help="broker user (read-only in the documented setup)")
    s.add_argument(
        "--password-file",
        type=text_file,
        help="file holding the broker password (or PLATEAU_MQTT_PASSWORD)",
    )
    s.add_argument("--client-id", help="the broker session's name (default: made up)")
    s.add_argument(
        "--blinds",
        type=text_file,
        metavar="FILE",
        help="Hold'em blind levels, one 'SMALL/BIG MINUTES' a line: a clock on each Hold'em page",
    )
    s.set_defaults(func=cmd_serve)


def add_players(sub, common=None) -> None:
    p = sub.add_parser(
        "players",
        help="name a table's seats for the league",
        description="Names a table's seats. With --url, through the running scoreboard as"
        " its operator's page does (the operator's token: --token-file, PLATEAU_TOKEN, or"
        " DB.token beside --db). With --db alone, in the SQLite file directly, with the same"
        " checks, audited with this machine's user: for whoever may write that file.",
    )
    p.add_argument("--db", type=out_file, help="the SQLite file plateau serve --db uses")
    p.add_argument(
        "--url",
        help="the scoreboard (http://127.0.0.1:8080): the names go through it, with the token",
    )
    p.add_argument(
        "--token-file", type=text_file, help="the operator's token (with --url), mode 600"
    )
    p.add_argument("--table", required=True, help="the table's name")
    p.add_argument(
        "seats", nargs="*", help="SEAT=NAME, e.g. R=Alice B=Bob (empty name: free the seat)"
    )
    p.set_defaults(func=cmd_players)


def add_results(sub, common=None) -> None:
    r = sub.add_parser(
        "results",
        help="the recorded results and their verdicts; confirm or void one",
        description="The results the scoreboard recorded, each rated (its replay of the"
        " table's events reached the same result) or disputed (why is said), confirmed or"
        " voided by an operator. `confirm N` / `void N` writes the decision into the SQLite"
        " file directly, audited with this machine's user: this command is for whoever may"
        " write that file (the scoreboard's pages need the operator's token instead).",
    )
    r.add_argument(
        "--db", type=out_file, required=True, help="the SQLite file plateau serve --db uses"
    )
    r.add_argument("--table", help="one table's results")
    r.add_argument("--night", metavar="YYYY-MM-DD", help="one night's (06:00 to 06:00)")
    r.add_argument("--game", help="one game's")
    r.add_argument("action", nargs="*", metavar="confirm N | void N", help="an operator's decision")
    r.set_defaults(func=cmd_results)


def add_league(sub, common=None) -> None:
    from plateau import games

    rated = games.league()
    lg = sub.add_parser("league", help="a game's ratings from the recorded results")
    lg.add_argument(
        "--db", type=out_file, required=True, help="the SQLite file plateau serve --db uses"
    )
    lg.add_argument(
        "--game",
        default=rated[0] if rated else None,
        choices=rated,
        help=f"the game kind (default {rated[0] if rated else 'none'})",
    )
    lg.set_defaults(func=cmd_league)
