"""Lines no logger writes, slipped into real logs (issue 34 point 2): with one unnumbered
`undo`, or a move of a forged boot, `plateau replay` exited 1 but named the next genuine
move, and a forged `hello` split the index into an extra game with 0 moves. A seeded
generator forges lines into logs the simulator made of all four games, at random places
after their first line (before a log's first hello a boot is taken as opened by its first
line: nothing there can be judged), and checks that the line blamed is the one forged,
that replay names no other line, and that the index takes the log as it was: the same
games, none opened by a stray hello. Repeated, dropped and moved lines alongside: a repeat
is dropped, and a hole is named where it is. The rules: repeats.Reader."""

import contextlib
import io
import json
import random

import pytest
from conftest import REPORT

from plateau.cli import main
from plateau.commands.logs import replay
from plateau.games import find
from plateau.index import Index

GAMES = ("tock", "weykick", "holdem", "pocha")
TRIALS = 10  # forgeries of each kind in each game's log (seeded)
SCRIPT_LINES = 300  # of each game's generated script
OTHER = {"tock": "weykick", "weykick": "pocha", "holdem": "tock", "pocha": "holdem"}


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """game -> the lines of a log `plateau sim` wrote of a whole short game."""
    tmp = tmp_path_factory.mktemp("forged")
    out = {}
    for game in GAMES:
        script = tmp / f"{game}.table"
        text = find(game).script(3, "short")
        # Tock's whole game, 4,000 script lines, replays slowly: the first 300 are plenty
        script.write_text("\n".join(text.splitlines()[:SCRIPT_LINES]) + "\n")
        log = tmp / f"{game}.jsonl"
        assert main(["sim", str(script), "--log", str(log), "--db", str(tmp / "x.sqlite")]) == 0
        out[game] = log.read_text().splitlines()
    # a log of two boots: a Weykick table, then a Hold'em one (another board, or one
    # erased), as `plateau sim --log` appends them
    out["two boots"] = out["weykick"] + out["holdem"]
    return out


def dump(ev: dict) -> str:
    return json.dumps(ev, separators=(",", ":"))


def following(evs: list[dict], at: int) -> tuple[dict, int]:
    """(the hello of the boot the log follows before evs[at], the last number of that boot
    there)."""
    hello = [e for e in evs[:at] if e["type"] == "hello"][-1]
    boot = hello["boot"]
    return hello, max(
        (e["seq"] for e in evs[:at] if e.get("boot") == boot and "seq" in e), default=0
    )


def forge(rng: random.Random, lines: list[str], kind: str) -> tuple[list[str], int]:
    """The log `lines` with one line forged in at a random place after its first line:
    (the new lines, the forged line's number)."""
    evs = [json.loads(t) for t in lines]
    numbered = [e for e in evs if "seq" in e]
    places = range(1, len(lines) + 1)  # the forged line goes before lines[at]
    if kind == "new-boot-hello":
        # a numbered line comes after it before any hello: a new boot's hello with none
        # after it is a restart nothing followed yet, and one just before a real restart a
        # restart that said only hello
        def decided(i):
            return next((e for e in evs[i:] if "seq" in e or e["type"] == "hello"), {})

        places = [i for i in places if "seq" in decided(i)]
    elif kind == "back-hello":  # behind what the log holds: there must be something
        places = [i for i in places if following(evs, i)[1] > 0]
    at = rng.choice(places)
    hello, last = following(evs, at)
    if kind == "unnumbered":  # a board's event, its number gone (an undo, as in the issue)
        ev = dict(rng.choice(numbered))
        del ev["seq"]
        if rng.random() < 0.5:
            ev = {"boot": ev["boot"], "type": "undo", "seat": ev.get("seat", "1")}
    elif kind == "boot":  # a numbered event of a boot no hello opened
        ev = dict(rng.choice(numbered), boot=f"{rng.getrandbits(32):08x}")
        ev["seq"] = rng.choice((last + 1, ev["seq"], rng.randint(1, 10**6)))
    elif kind == "new-boot-hello":  # a restart that did not happen
        ev = dict(hello, boot=f"{rng.getrandbits(32):08x}", at=rng.choice((0, last)))
    elif kind == "back-hello":  # a hello behind what the log holds of its boot
        ev = dict(hello, at=rng.randint(0, last - 1))
    elif kind == "other-game-hello":  # another game at the number the log is at
        ev = dict(hello, at=last, game=OTHER[hello["game"]])
    else:
        raise AssertionError(kind)
    return lines[:at] + [dump(ev)] + lines[at:], at + 1


def replayed(tmp_path, lines: list[str], name: str) -> tuple[int, str, str]:
    log = tmp_path / f"{name}.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = replay(str(log))
    return code, out.getvalue(), err.getvalue()


def indexed(tmp_path, lines: list[str], name: str, cuts: list[int] = ()) -> tuple[list, list]:
    """(its games without their line numbers, the lines it did not take) from an index of
    the log `lines` read as it grew: written up to each of `cuts` (a line count), caught up,
    committed and closed, then the rest."""
    log = tmp_path / f"{name}.jsonl"
    db = tmp_path / f"{name}.sqlite"
    db.unlink(missing_ok=True)
    faults = []
    for n in [*cuts, len(lines)]:
        log.write_text("".join(t + "\n" for t in lines[:n]))
        index = Index(db, log)
        index.catch_up()
        faults += index.faults
        rows = index.games()
        index.close()
    return [row[:6] for row in rows], faults


def named_lines(text: str) -> list[int]:
    return [int(t.split()[1]) for t in text.splitlines() if t.startswith("line ")]


KINDS = ("unnumbered", "boot", "new-boot-hello", "back-hello", "other-game-hello")


@pytest.mark.parametrize("game", [*GAMES, "two boots"])
def test_the_forged_line_is_the_one_blamed_by_replay_and_the_index(logs, game, tmp_path):
    lines = logs[game]
    code, out, _ = replayed(tmp_path, lines, "clean")
    assert code == 0, out
    games, faults = indexed(tmp_path, lines, "clean")
    assert faults == [] and games
    rng = random.Random(f"forged {game}")
    for kind in KINDS:
        for trial in range(TRIALS):
            forged, bad = forge(rng, lines, kind)
            what = (game, kind, trial, bad, forged[bad - 1])
            code, out, _ = replayed(tmp_path, forged, "forged")
            assert code == 1, (what, out)
            assert named_lines(out) == [bad], (what, out)
            assert "breaks the log's rules" in out and "does not follow" not in out, (what, out)
            # the index, read in one go and read as the log grew (cut around the forged line)
            cuts = sorted([rng.randrange(1, len(forged)), bad - 1, bad])
            for steps in ([], cuts):
                got, faults = indexed(tmp_path, forged, "forged", steps)
                assert [n for n, _ in faults] == [bad], (what, steps, faults)
                assert got == games, (what, steps)
    REPORT.append(
        f"forged lines ({game}, a {len(lines)}-line simulator log): {len(KINDS) * TRIALS}"
        f" forgeries ({', '.join(KINDS)}; {TRIALS} each): each named by replay and by the"
        " index (read in one go, and as the log grew) as the forged line, no other line"
        " named, the index's games as without it"
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_hello_no_different_from_a_reopen_changes_nothing(logs, game, tmp_path):
    """A copy of the session's hello at the number the log is at is what a port reopened
    writes: nothing to blame, and nothing opened (no extra game, no game restarted)."""
    lines = logs[game]
    games, _ = indexed(tmp_path, lines, "clean")
    evs = [json.loads(t) for t in lines]
    hello = next(e for e in evs if e["type"] == "hello")
    rng = random.Random(f"reopen {game}")
    for _ in range(TRIALS):
        at = rng.randint(1, len(lines))
        last = max((e["seq"] for e in evs[:at] if "seq" in e), default=0)
        forged = lines[:at] + [dump(dict(hello, at=last))] + lines[at:]
        code, out, _ = replayed(tmp_path, forged, "reopen")
        assert code == 0 and named_lines(out) == [], (at, out)
        assert indexed(tmp_path, forged, "reopen") == (games, [])


@pytest.mark.parametrize("game", GAMES)
def test_repeated_dropped_and_moved_lines(logs, game, tmp_path):
    """A numbered line repeated anywhere is dropped (the replay passes, saying it); one
    dropped or moved later leaves a hole, named at the line after it before any other."""
    lines = logs[game]
    numbered = [i for i, t in enumerate(lines) if '"seq":' in t][:-1]
    rng = random.Random(f"moved {game}")
    for trial in range(TRIALS):
        i = rng.choice(numbered)
        j = rng.randint(i + 1, len(lines))
        repeated = lines[:j] + [lines[i]] + lines[j:]
        code, out, _ = replayed(tmp_path, repeated, "repeated")
        assert code == 0 and "1 repeated lines dropped" in out, (trial, i, j, out)
        how = rng.choice(("dropped", "moved"))
        changed = lines[:i] + lines[i + 1 :]
        if how == "moved":
            changed = changed[: j - 1] + [lines[i]] + changed[j - 1 :]
        after = next(k for k in range(i, len(changed)) if '"seq":' in changed[k])
        if changed[after] == lines[i]:
            continue  # moved past no numbered line: the numbering is as it was
        code, out, err = replayed(tmp_path, changed, how)
        named = [int(t.split(" line ")[1].split(":")[0]) for t in err.splitlines()]
        named += named_lines(out)
        # the numbered line after the hole is the first the replay names (a move checked
        # against a position that lacks the missing one may fail after it)
        assert named and min(named) == after + 1, (how, trial, i, j, out, err)
