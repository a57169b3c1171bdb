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
listening: it must still get every event from the first (kills.EARLY).

Each game is also played once without kills; its log is the reference. For every killed run
the harness counts: games stuck (the script ended and the game did not), plays (moves,
cards, bids, bets, goals...) lost or doubled against the reference, events logged twice or
missing from the numbering, and whether the game ended as the reference did.

Kill points are chosen where a reset hurts most (plateau.kills); one run, killed at them, is
in plateau.restarts.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from plateau import games
from plateau.build import BUILD, build
from plateau.commands import SEED, out_folder, whole
from plateau.games import find
from plateau.kills import plan
from plateau.restarts import RESYNC_S, Run, run

# The games the harness plays (those with a generator), in the order that seeds each one's
# runs: as each game's host module places itself (ORDER: the four as they always were), a
# game added since after them
GAMES = games.harness("resets")

# What each game's events must agree on, killed or not: its plays and their outcome (timings,
# the board's clock and link messages aside), as its host module says (plateau/games/).


def plays(game: str, events: list[dict]) -> list[str]:
    """The plays of a log, each as one comparable line."""
    keys, compared = find(game).PLAYS, find(game).compared
    out = []
    for ev in events:
        fields = keys.get(str(ev.get("type")))
        if fields is None:
            continue
        d = {k: ev.get(k) for k in fields}
        if compared:  # the game's own reading (Tock: a Jack's two steps in any order)
            d = compared(ev, d)
        out.append(ev["type"] + " " + json.dumps(d, sort_keys=True))
    return out


def outcome(game: str, events: list[dict]) -> str | None:
    last = [p for p in plays(game, events) if p.startswith(f"{find(game).OUTCOME} ")]
    return last[-1] if last else None


def script(game: str, seed: int, size: str = "full") -> str:
    """A whole generated game (`size` "short": a quicker one for `make test`): the game's
    generator (its host module's script, plateau/games/<game>)."""
    return find(game).script(seed, size)


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
            must = find(game).RESETS_FIRST  # a stretch its first game holds (a tie-break)
            while must and k == 0 and must not in text:
                gseed += 1000
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
