"""`plateau resets`: the reset harness (issue 15).

Whole generated games of all four games are played through the real firmware (the
simulator under `micropython`, as `plateau sim` runs it), with a host logging them through
the pty as `plateau log` would (HostLink, Logger). At seeded random points the firmware
process is killed with SIGKILL (kill -9: no clean-up, a save may be cut in the middle) and
started again on the same simulated flash (--state) and the same physical table (--world,
written by the simulator before the firmware sees each hand action: pawns, cards on the
reader and balls in goals stand as they stood). The pty is held open by the harness across
the kills, as a USB-serial bridge stays when the board under it resets. In every other
game the host is started late, after the board was killed once or more with nobody
listening: it must still get every event from the first (EARLY below).

Each game is also played once without kills; its log is the reference. For every killed run
the harness counts: games stuck (the script ended and the game did not), plays (moves,
cards, bids, bets, goals...) lost or doubled against the reference, events logged twice or
missing from the numbering, and whether the game ended as the reference did.

Kill points are chosen where a reset hurts most: inside a Jack swap, during a 7, with the
pile holding the deck's last card, mid-move (Tock); in a tie-break hand, in the draw for
the first dealer and after the game ended (Pocha); mid-hand, at showdown and in the draw
for the button (Hold'em); with the ball in a goal and right after it was taken out
(Weykick); and anywhere. The line is seeded; the
instant, a few milliseconds after the simulator reached it, is the machine's (what the
firmware was doing then: scanning, saving, writing a frame). A file `state.tmp` or
`events.log.tmp` left on the flash after a kill shows the kill cut a save short: counted.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from plateau import registry
from plateau.build import BUILD, build
from plateau.commands import SEED, out_folder, whole
from plateau.logger import read_log
from plateau.registry import find
from plateau.sim import command, dies_with_parent

# The games the harness plays (those with a generator slot), in the order that seeds each
# one's runs: the four as they always were, a game added since after them
GAMES = registry.generated(("tock", "pocha", "holdem", "weykick"))
RUN_TIMEOUT_S = 600.0  # a run longer than this is stuck (a whole Tock game takes ~40 s)
# A killed run's table time goes at most SPEED times real time: the host's own timing (it
# asks again 0.25 s, 0.5 s, then every second after a hole) is real time, and a board that
# restarts keeps what its ring held (256 events, 16 KB). Unpaced, the simulator can emit
# hundreds of events in the 0.25 s before the host asks, and resets come 0.1 s apart: no
# table does that.
SPEED = 25
# And a board that was reset takes this long to start again (an ESP32 boots in a second or
# two): the host meanwhile reads what the killed board wrote and asks for what it misses.
BOOT_S = 0.5
FLASH_MS = 3  # a save takes this long to land (the simulator's slow flash): kills cut some
# In every other killed run the host (`plateau log`) is started late: the board plays on with
# no host listening and is killed (once or more) between its EARLY/2th and EARLY th script
# lines, and once it is back the host asks for everything from the first event: tens of
# events, all still in the ring (256 events, 16 KB). A board that restarted must resend every
# event it had saved, as it would have without the reset.
EARLY = 60  # lines: at most about 80 events, 8 KB (Hold'em, the wordiest)
RESYNC_S = 10.0  # the longest the harness waits for the host to catch up after a restart

# What each game's events must agree on, killed or not: its plays and their outcome (timings,
# the board's clock and link messages aside), as its host view module says (plateau/views/).


def plays(game: str, events: list[dict]) -> list[str]:
    """The plays of a log, each as one comparable line."""
    keys = find(game).PLAYS
    out = []
    for ev in events:
        fields = keys.get(str(ev.get("type")))
        if fields is None:
            continue
        d = {k: ev.get(k) for k in fields}
        if ev["type"] == "move" and d["kind"] == "swap":  # a Jack's two steps in any order
            d["steps"] = sorted(d["steps"] or [])
        out.append(ev["type"] + " " + json.dumps(d, sort_keys=True))
    return out


def outcome(game: str, events: list[dict]) -> str | None:
    last = [p for p in plays(game, events) if p.startswith(f"{find(game).OUTCOME} ")]
    return last[-1] if last else None


# --- the games, and where to kill them ------------------------------------------------


def script(game: str, seed: int, size: str = "full") -> str:
    """A whole generated game (`size` "short": a quicker one for `make test`): the game's
    generator slot (plateau/views/<game>.py)."""
    return find(game).script(seed, size)


def places(game: str, text: str) -> dict[str, list[int]]:
    """Script lines (1-based) where a kill hurts most, by kind; "any": every action line.
    The stretches its generator marks with a comment (a jack swap, a tie-break, a showdown, a
    hand) for any game; the game's own places from its view module's kill_place."""
    lines = text.split("\n")
    out: dict[str, list[int]] = {"any": []}

    def add(kind: str, n: int) -> None:
        out.setdefault(kind, []).append(n)

    view = find(game)
    kill_place = view.kill_place or (lambda verb, raw, seen: (None, None))
    seen: dict = {}  # what the game's kill_place counts
    inside = None  # the kind of stretch we are in: "seven", "pile", "tiebreak", ...
    for i, raw in enumerate(lines):
        n = i + 1
        word = raw.split("#", 1)[0].split()[:1]
        verb = word[0] if word else None
        if raw.startswith("# jack swap"):
            for k in (1, 2, 3):  # after the first, second and third of its four actions
                add("jack swap", n + k)
        if raw.startswith("# tie-break"):
            inside = "tie-break"
        if raw.startswith("# showdown"):
            add("showdown", n + 1)
        if raw.startswith("# hand "):
            inside = "hand"
        if verb is None:
            continue
        out["any"].append(n)
        place, stretch = kill_place(verb, raw, seen)  # the game's own (its view module)
        if place:
            add(place, n)
        if stretch is not None:
            inside = stretch or None
        if inside and verb in ("card", "move", "lift", "place", "send", "wait", "gather"):
            add(inside, n)
    if view.KILL_AFTER_END:  # the game over: its last lines (the final wait)
        out["after the game ended"] = out["any"][-view.KILL_AFTER_END :]
    out["mid-save"] = out["any"]  # the kill waits there for a save under way (see run)
    return out


def choose(game: str, text: str, kills: int, rng: random.Random) -> list[tuple[int, float]]:
    """`kills` kill points: (script line, delay in s after the simulator reached it), half
    of them in the places a reset hurts most, the others anywhere."""
    where = places(game, text)
    special = [k for k in where if k != "any" and where[k]]
    points = []
    for i in range(kills):
        kind = special[i % len(special)] if special and i % 2 == 0 else "any"
        # aimed at a short stretch (a Jack swap is 4 actions), the kill follows closely
        delays = (0, 0, 0.0005, 0.001) if kind != "any" else (0, 0.0005, 0.001, 0.003, 0.01)
        # mid-save: the kill comes as soon as a file being saved shows on the flash
        points.append(
            (rng.choice(where[kind]), SAVING if kind == "mid-save" else rng.choice(delays))
        )
    return sorted(points)


def plan(
    game: str, text: str, n: int, late: bool, rng: random.Random
) -> tuple[list[tuple[int, float]], int]:
    """A run's `n` kill points (sorted) and how many of them come before the host starts
    (0: it is there from the start). With `late`, one of the `n` is an early kill with nobody
    listening (EARLY), the others are chosen as usual: `--kills N` makes N kills, not N plus
    the early ones."""
    if not late:
        return choose(game, text, n, rng), 0
    every = places(game, text)["any"]
    lines = every[EARLY // 2 : EARLY] or every[: len(every) // 2 + 1]  # (a short game)
    early = (rng.choice(lines), rng.choice((0, 0.001)))
    points = sorted(choose(game, text, n - 1, rng) + [early])
    return points, points.index(early) + 1


def kind_of(game: str, text: str, line: int) -> list[str]:
    """The places a script line belongs to (to say where the kills landed)."""
    skip = ("any", "mid-save")  # mid-save is said by what the kill left on the flash
    return sorted(k for k, ns in places(game, text).items() if line in ns and k not in skip)


SAVING = -1.0  # a kill point's delay meaning: at the next save under way


# --- one run: the firmware, killed and started again, and a host logging it ------------


@dataclass
class Run:
    events: list[dict] = field(default_factory=list)
    kills: int = 0
    cut_saves: int = 0  # kills that left a save cut short on the flash
    landed: dict[str, int] = field(default_factory=dict)  # where the kills landed
    finished: bool = False  # the simulator played the script to its end
    resync_max: float = 0.0  # longest real time from a restart to the host having caught up
    resync_late: int = 0  # restarts after which the host had not caught up within RESYNC_S
    late: list[str] = field(default_factory=list)
    stderr: str = ""


class Board:
    """The simulated board behind one pty for the whole run: firmware processes come and
    go (kill -9, restart); the pty stays, as a USB-serial bridge stays when the ESP32 under
    it resets."""

    def __init__(self, script_path: Path, work: Path, mpy: Path = BUILD, speed: int = 0):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.script = script_path
        self.flash = work / "flash"
        self.world = work / "world.json"
        self.errors = work / "stderr.txt"
        self.mpy = mpy  # the compiled firmware
        self.speed = speed  # table time at most this many times real time (0: as fast as it can)
        self.proc: subprocess.Popen | None = None

    def start(self, wait_host: bool = False) -> None:
        """Power the board up; `wait_host`: hands act once a host has said hello (table time
        stands still until then), so what a host that comes late gets is not a matter of
        how fast this machine starts one."""
        paced = ["--speed", str(self.speed), "--flash-ms", str(FLASH_MS)] if self.speed else []
        paced += ["--wait-host"] if wait_host else []
        cmd = command(
            self.script, "--state", str(self.flash), "--world", str(self.world), "--linger", *paced
        )
        env = dict(os.environ, MICROPYPATH=str(self.mpy))
        with open(self.errors, "ab") as err:
            self.proc = subprocess.Popen(
                cmd,
                stdin=self.master,
                stdout=self.master,
                stderr=err,
                env=env,
                cwd=self.mpy,
                preexec_fn=dies_with_parent(),
            )

    def line(self) -> int:
        """The last script line the simulator finished (from its world file)."""
        try:
            return json.loads(self.world.read_text())["line"]
        except (OSError, ValueError, KeyError):
            return 0

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def saving(self) -> bool:
        return any((self.flash / n).exists() for n in ("state.tmp", "events.log.tmp"))

    def cut_save(self) -> bool:
        return any((self.flash / n).exists() for n in ("state.tmp", "events.log.tmp"))

    def close(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.kill()
        os.close(self.master)
        os.close(self.slave)


def logger(board: Board, work: Path) -> subprocess.Popen:
    """The host: `plateau log` on the pty, as a person runs it (it reconnects by itself,
    asks for what it missed, writes each event once)."""
    with open(work / "logger.txt", "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "plateau", "log", "--port", board.port, "--json"]
            + ["--log", str(work / "log.jsonl"), "--db", str(work / "games.sqlite")],
            stdout=subprocess.DEVNULL,
            stderr=out,
            preexec_fn=dies_with_parent(),
        )


def last_number(flash: Path) -> tuple[str | None, int]:
    """(boot, seq) of the last event the board numbered and kept, from its flash."""
    try:
        state = json.loads((flash / "state.json").read_text())["state"]["link"]
        return state["boot"], state["seq"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, 0


def logged(log: Path, boot: str | None, seq: int) -> bool:
    """Whether the log holds event `seq` of `boot` (or the gap that says it is gone)."""
    if seq <= 0:
        return True  # nothing numbered yet
    for _, ev, *_ in read_log(log) if log.exists() else ():
        if ev and ev.get("boot") == boot:
            if ev.get("seq") == seq or ev.get("type") == "gap" and ev.get("to", 0) >= seq:
                return True
    return False


def run(
    text: str,
    kills: list[tuple[int, float]],
    game: str,
    work: Path,
    mpy: Path = BUILD,
    host_after: int = 0,
) -> Run:
    """One run of the script, killed at `kills`; `host_after` kills happen before the host
    is started (a logger started late: it asks for everything since the first event)."""
    work.mkdir(parents=True, exist_ok=True)
    path = work / "game.table"
    path.write_text(text)
    board = Board(path, work, mpy, SPEED if kills else 0)
    log = work / "log.jsonl"
    result = Run()
    host = None if host_after else logger(board, work)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    try:
        board.start(wait_host=host is not None)
        assert board.proc is not None
        for line, delay in kills:
            while board.line() < line and board.proc.poll() is None:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.0005)
            if board.proc.poll() is not None or time.monotonic() > deadline:
                break  # the script is over (or stuck): no more kills
            if delay == SAVING:
                until = time.monotonic() + 5
                while not board.saving() and time.monotonic() < until:
                    time.sleep(0.0002)
            else:
                time.sleep(delay)
            board.kill()
            result.kills += 1
            cut = board.cut_save()
            result.cut_saves += cut
            for k in kind_of(game, text, board.line()) + ["mid-save"] * cut or ["elsewhere"]:
                result.landed[k] = result.landed.get(k, 0) + 1
            kept = last_number(board.flash)  # what the board will take up
            time.sleep(BOOT_S)
            if host is None and result.kills >= host_after:
                board.start(wait_host=True)  # the host comes now: the board waits for it
                host = logger(board, work)
                result.landed["before the host came"] = host_after
            else:
                board.start()
            if host is None:
                continue  # nobody to catch up yet
            # the next reset comes once the host has what the board had when it went down
            # (resets are seconds apart at a table; the host asks again in real time)
            t0 = time.monotonic()
            while time.monotonic() < min(deadline, t0 + RESYNC_S) and not logged(log, *kept):
                time.sleep(0.02)
            took = time.monotonic() - t0
            result.resync_max = max(result.resync_max, took)
            if took >= RESYNC_S:
                result.resync_late += 1
                result.late.append(f"the host lacked {kept} {took:.0f} s after a restart")
        if host is None:  # the script ended before the kills the host was to come after
            host = logger(board, work)
        # the script played to its end (the board stays on, as a board does: --linger)
        last = places(game, text)["any"][-1]
        while board.line() < last and board.proc.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        result.finished = board.line() >= last
        # the host has the board's last event, or says it is gone (or it never comes)
        end = min(deadline, time.monotonic() + 30)
        while time.monotonic() < end:
            boot, seq = last_number(board.flash)
            if logged(log, boot, seq):
                break
            time.sleep(0.1)
    finally:
        if host is not None:
            host.send_signal(signal.SIGTERM)  # plateau log ends as on Ctrl-C
            try:
                host.wait(timeout=10)
            except subprocess.TimeoutExpired:
                host.kill()
        board.close()
    result.stderr = board.errors.read_text(errors="replace") if board.errors.exists() else ""
    result.events = [ev for _, ev, *_ in read_log(log) if ev is not None] if log.exists() else []
    return result


# --- counting ----------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    kills: int = 0
    cut_saves: int = 0
    stuck: int = 0
    lost: int = 0  # plays of the reference missing from the killed run's log
    doubled: int = 0  # plays in the killed run's log that the reference does not have
    logged_twice: int = 0  # numbered events in the log twice
    holes: int = 0  # numbers missing from the log's numbering, no gap line saying so
    gapped: int = 0  # numbers the log says are gone (gap lines)
    bad: int = 0  # numbered events the host logged as bad
    different_end: int = 0
    plays: int = 0
    resync_max: float = 0.0
    resync_late: int = 0
    landed: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def compare(game: str, ref: list[dict], got: Run, tally: Tally, name: str) -> None:
    a, b = plays(game, ref), plays(game, got.events)
    tally.plays += len(a)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            tally.lost += i2 - i1
        if op in ("insert", "replace"):
            tally.doubled += j2 - j1
        if op != "equal" and len(tally.problems) < 12:
            tally.problems.append(f"{name}: {op} {a[i1:i2][:2]} -> {b[j1:j2][:2]}")
    numbered = [(e.get("boot"), e["seq"]) for e in got.events if isinstance(e.get("seq"), int)]
    tally.logged_twice += len(numbered) - len(set(numbered))
    tally.bad += sum(1 for e in got.events if e.get("type") == "bad")
    gone: set[tuple] = set()
    for e in got.events:
        if (
            e.get("type") == "gap"
            and isinstance(e.get("from"), int)
            and isinstance(e.get("to"), int)
        ):
            tally.gapped += e["to"] - e["from"] + 1
            gone.update((e.get("boot"), s) for s in range(e["from"], e["to"] + 1))
    for boot in {bt for bt, _ in numbered}:
        seqs = {s for bt, s in numbered if bt == boot} | {s for bt, s in gone if bt == boot}
        tally.holes += max(seqs) - min(seqs) + 1 - len(seqs)
    tally.problems += [f"{name}: {w}" for w in got.late]
    end_ref, end_got = outcome(game, ref), outcome(game, got.events)
    if not got.finished or end_got is None and end_ref is not None:
        tally.stuck += 1
        tally.problems.append(f"{name}: stuck ({got.stderr.strip()[-300:]})")
    elif end_got != end_ref:
        tally.different_end += 1
        tally.problems.append(f"{name}: ended {end_got} where the reference ended {end_ref}")


def harness(
    kills: int,
    seed: int,
    games=GAMES,
    per_game: int = 10,
    size: str = "full",
    work: Path | None = None,
    say=print,
) -> Tally:
    """`kills` kills spread over generated games of each kind (about `per_game` a game)."""
    build(only_changed=True)
    tally = Tally()
    rng = random.Random(seed)
    base = Path(work).resolve() if work else Path(tempfile.mkdtemp(prefix="plateau-resets-"))
    mpy = base / "mpy"  # a copy of its own: a rebuild meanwhile does not reach the runs
    shutil.copytree(BUILD, mpy, dirs_exist_ok=True)
    share = kills // len(games)
    for gi, game in enumerate(games):
        left = share + (1 if gi < kills % len(games) else 0)
        k = 0
        while left > 0:
            n = min(per_game, left)
            gseed = seed * 1000 + gi * 100 + k
            text = script(game, gseed, size)
            while game == "pocha" and k == 0 and "# tie-break" not in text:
                gseed += 1000  # one Pocha game a run ends in a tie-break (1 game in 20 does)
                text = script(game, gseed, size)
            ref = run(text, [], game, base / f"{game}-{k}-ref", mpy)
            if not ref.finished:
                tally.problems.append(
                    f"{game} seed {gseed}: the reference run failed: {ref.stderr[-300:]}"
                )
            late = (tally.games + seed) % 2 == 0  # the logger started late in every other
            points, host_after = plan(game, text, n, late, rng)
            got = run(text, points, game, base / f"{game}-{k}", mpy, host_after)
            tally.games += 1
            tally.kills += got.kills
            tally.cut_saves += got.cut_saves
            tally.resync_max = max(tally.resync_max, got.resync_max)
            tally.resync_late += got.resync_late
            for where, c in got.landed.items():
                tally.landed[where] = tally.landed.get(where, 0) + c
            compare(game, ref.events, got, tally, f"{game} seed {gseed}")
            say(f"  {game} seed {gseed}: {got.kills} kills, {len(plays(game, ref.events))} plays")
            left -= max(1, got.kills)
            k += 1
    return tally


def report(t: Tally) -> str:
    where = ", ".join(f"{k} {v}" for k, v in sorted(t.landed.items()))
    return (
        f"resets: {t.kills} kill -9 over {t.games} games ({t.plays} plays), {t.cut_saves} cut "
        f"a save short: {t.stuck} stuck, {t.lost} plays lost, {t.doubled} doubled, "
        f"{t.logged_twice} events logged twice, {t.gapped} gapped, {t.bad} bad, {t.holes} holes "
        f"in the numbering, {t.different_end} ended otherwise; the host caught up within "
        f"{t.resync_max:.1f} s of every restart ({t.resync_late} later than {RESYNC_S:.0f} s); "
        f"kills landed: {where}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="plateau resets", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--kills", type=whole(1, 1_000_000), default=240, help="kills in all (default 240)"
    )
    p.add_argument(
        "--per-game", type=whole(1, 10_000), default=10, help="kills in one game (default 10)"
    )
    p.add_argument("--seed", type=SEED, default=1)
    p.add_argument("--games", default=",".join(GAMES), help="which games, by commas (default: all)")
    p.add_argument("--short", action="store_true", help="shorter games (what make test runs)")
    p.add_argument(
        "--keep", type=out_folder, help="keep each run's flash, world and log in this folder"
    )
    args = p.parse_args(argv)
    games = tuple(g for g in args.games.split(",") if g)
    bad = [g for g in games if g not in GAMES]
    if bad:
        print(f"plateau resets: unknown game {bad[0]}; one of: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="plateau-resets-") as tmp:
        t = harness(
            args.kills,
            args.seed,
            games,
            args.per_game,
            "short" if args.short else "full",
            Path(args.keep or tmp),
        )
    print(report(t))
    for line in t.problems:
        print("  " + line)
    bad_run = t.stuck or t.lost or t.doubled or t.logged_twice or t.holes or t.different_end
    bad_run = bad_run or t.gapped or t.bad or t.resync_late
    return 1 if bad_run else 0


if __name__ == "__main__":
    sys.exit(main())
