"""Table scripts from a hostile hand (docs/scripts.md): seeded random lines, most of them
good, the rest spoilt the ways people and tools spoil them (a digit from another script, a
number past any sane size, a byte that is not UTF-8, a card of the other deck after a
`send new`, a missing or contradicting `position` file, `send repl`, a wait of years). The
checker takes each script whole or refuses it with "line N:"; `plateau sim` plays it to a
clean end or refuses it before the run with rc 2 and "line N:": never a traceback, never a
run that dies half way."""

import json
import random
import re
import shutil
import subprocess
import sys

from plateau import ROOT
from plateau.commands.sim import decode
from plateau.fw.sim.script import MAX_MS, ScriptError, parse

FRENCH = [r + s for r in ("A", "K", "Q", "J", "10", "9", "7", "5", "2") for s in "SHDC"]
SPANISH = [f"{r}{s}" for r in (1, 3, 5, 7, 10, 12) for s in "OCEB"]
# digits people paste by mistake: fullwidth, Arabic-Indic, Devanagari, superscript
ODD = ["２", "٣", "४", "²", "1_0", "+3", "-1", "nan", "inf", "0x10", "1e3", "99999999999999999999"]
TABLES = {
    "tock": ["players=2", "players=3", "players=4", ""],
    "holdem": ["seats=3 stacks=100 blinds=1/2", "seats=2 stacks=1 blinds=1/2", "seats=4"],
    "pocha": ["players=3", "players=4 deck=48", ""],
    "weykick": ["", "mode=first-to:2"],
}


def good_line(rng, game):
    """A line that means something on a table playing `game`."""
    card = rng.choice(SPANISH if game == "pocha" else FRENCH)
    common = [f"wait {rng.randint(0, 400)}", f"pace {rng.randint(0, 100)}", "gather"]
    by_game = {
        "tock": [f"card {card}", "move RC1 R1", "lift R1", "place R1", "button undo"],
        "holdem": [f"card {card}", "send hand", "send call 1", "send fold 2", "send check 3"],
        "pocha": [f"card {card}", "send bid 1 0", "send bid 2 1", "send draw"],
        "weykick": ["ball A", "clear A", "ball B", "clear B", "button undo"],
    }
    return rng.choice(common + by_game[game] * 2)


def spoil(rng, line):
    """The line as a hostile hand writes it."""
    how = rng.randrange(7)
    if how == 0 and re.search(r"\d", line):
        return re.sub(r"\d", rng.choice(ODD), line, count=1)
    if how == 1:
        return line + " " + rng.choice(ODD)
    if how == 2:
        return rng.choice(["wait", "pace", "unplug", "glitch A"]) + " " + rng.choice(ODD)
    if how == 3:
        return f"wait {rng.choice([MAX_MS + 1, 10**12, 2**64])}"
    if how == 4:
        return "send repl"
    if how == 5:
        return line.replace(" ", "\u00a0", 1)  # a no-break space from a word processor
    return rng.choice(["send new players=２", "send new holdem seats=٣", "card 5O", "card AS"])


def script(rng):
    """(text bytes, whether it was spoilt): a table line, lines, `send new` switches."""
    game = rng.choice(list(TABLES))
    lines = [f"table {game} {rng.choice(TABLES[game])}".rstrip()]
    if game == "tock" and rng.random() < 0.3:
        lines.append(f"position {rng.choice(['mid.json', 'four.json', 'none.json'])}")
    spoilt = False
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.15:
            other = rng.choice(list(TABLES))
            lines.append(f"send new {other} {rng.choice(TABLES[other])}".rstrip())
            game = other
            continue
        line = good_line(rng, game)
        if rng.random() < 0.12:
            line, spoilt = spoil(rng, line), True
        lines.append(line)
    data = "\n".join(lines).encode() + b"\n"
    if rng.random() < 0.05:
        cut = rng.randrange(len(data))
        data, spoilt = data[:cut] + rng.choice([b"\xff", b"\xc3", b"\xe2\x82"]) + data[cut:], True
    return data, spoilt


def folder(tmp_path):
    """A script folder with two positions: one for 4 players, one for 2."""
    shutil.copy(ROOT / "host_tools/plateau/examples/midgame.json", tmp_path / "four.json")
    pawns = {c: ["camp"] * 4 for c in "GBY"} | {"R": ["R1", "camp", "camp", "camp"]}
    two = {"players": 2, "pawns": pawns, "turn": "R"}
    (tmp_path / "mid.json").write_text(json.dumps(two))
    return tmp_path


def test_random_hostile_scripts_are_checked_whole_or_refused_by_line(tmp_path):
    base = str(folder(tmp_path))
    rng = random.Random(1607)
    taken = refused = 0
    for _ in range(3000):
        data, _ = script(rng)
        try:
            parse(decode(data), base)
            taken += 1
        except ScriptError as e:
            assert re.match(r"line \d+: \S", str(e)), e
            assert 1 <= e.line <= data.count(b"\n") + 1
            refused += 1
    print(f"script check: 3000 random hostile scripts, {taken} taken, {refused} refused by line")
    assert taken > 500 and refused > 500


def test_random_hostile_scripts_through_the_simulator(tmp_path):
    """Each script the checker takes plays to a clean end; each it refuses is refused by
    `plateau sim` before the run, rc 2, with its line; nothing ends in a traceback."""
    base = folder(tmp_path)
    rng = random.Random(1608)
    ran = refused = 0
    for k in range(60):
        data, spoilt = script(rng)
        path = base / f"s{k}.table"
        path.write_bytes(data)
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "sim", str(path)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        said = done.stdout + done.stderr
        assert "Traceback" not in said and "Error:" not in said, (data, said[-1500:])
        if done.returncode == 2:
            assert re.search(rf"s{k}\.table: line \d+: ", done.stderr), (data, done.stderr)
            assert spoilt or b"position" in data, (data, done.stderr)
            refused += 1
        else:
            assert done.returncode == 0, (data, said[-1500:])
            assert "firmware exited cleanly" in done.stderr, (data, said[-1500:])
            ran += 1
    print(f"sim: 60 random hostile scripts, {ran} played to the end, {refused} refused by line")
    assert ran > 5 and refused > 5


def refusal(tmp_path, data):
    path = folder(tmp_path) / "t.table"
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-m", "plateau", "sim", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def test_position_files_are_checked_before_the_run(tmp_path):
    err = refusal(tmp_path, b"table tock players=2\nposition gone.json\ncard 7H\n")
    assert "line 2: position gone.json: no such file" in err
    # the table line and the position must describe one game: players=2 vs a 4-player one
    err = refusal(tmp_path, b"table tock players=2\nposition four.json\n")
    assert "line 2: position four.json is for players=4; the table line says players=2" in err
    err = refusal(tmp_path, b"table tock rules=toc-fr\nposition mid.json\n")
    assert "is for rules=classic; the table line says rules=toc-fr" in err
    # without players= on the table line, the position says how many play
    parse("table tock\nposition four.json\n", str(tmp_path))


def test_a_line_that_is_not_utf8_is_refused_with_its_number(tmp_path):
    err = refusal(tmp_path, b"table tock players=2\ncard 7H\ncard 7\xff\n")
    assert "line 3: not UTF-8 text" in err


def test_numbers_are_ascii_digits_only_everywhere(tmp_path):
    for bad in ("table tock players=２", "table holdem seats=٣", "table holdem blinds=１/2"):
        with_line = refusal(tmp_path, (bad + "\n").encode())
        assert "line 1:" in with_line, with_line
    head = "table tock players=2\n"
    for bad in ("wait ２00", "pace ²", "move RC1 R１", "glitch R1 ５", "send new players=４"):
        assert "line 2:" in refusal(tmp_path, (head + bad + "\n").encode()), bad
    head = "table pocha players=3\n"
    assert "line 2:" in refusal(tmp_path, (head + "card １O\n").encode())


def test_a_wait_is_an_hour_at_most_and_send_repl_ends_nothing_silently(tmp_path):
    err = refusal(tmp_path, b"table tock\nwait 99999999999999999999\n")
    assert "line 2: expected a duration in ms from 0 to 3600000" in err
    err = refusal(tmp_path, b"table tock\nwait 3600001\n")
    assert "line 2: expected a duration in ms from 0 to 3600000" in err
    err = refusal(tmp_path, b"table tock\npace 60001\n")
    assert "line 2: expected a duration in ms from 0 to 60000" in err
    err = refusal(tmp_path, b"table tock\ncard 7H\nsend repl\nreset\ncard AH\n")
    assert "line 3: send repl hands the board to its REPL" in err


def test_a_card_of_the_game_in_play_after_send_new(tmp_path):
    """`card 5O` after `send new pocha` on a Tock table: the Spanish five of oros is laid (the
    simulator took the table line's game, found no French 5O and died with nothing said)."""
    path = folder(tmp_path) / "switch.table"
    path.write_text("table tock players=2\nsend new pocha players=3\ncard 5O\n")
    done = subprocess.run(
        [sys.executable, "-m", "plateau", "sim", str(path), "--json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(ln) for ln in done.stdout.split("\n") if ln.startswith("{")]
    assert any(e.get("type") == "trump" and e.get("card") == "5O" for e in events)
    err = refusal(tmp_path, b"table tock players=2\nsend new pocha players=3\ncard 5H\n")
    assert "line 3:" in err
