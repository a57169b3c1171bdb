"""Position.play and Position.undo (python-chess's push and pop), the one undo history of Tock:
the board's tracker and the host's follower (live view, replay) both keep their moves there,
so an undo takes back the same move on both sides (T17: a discard is not taken back)."""

import json
import random
import subprocess
import sys

from test_tock_props import deck

from plateau.fw.games.tock.rules import Card, Position

HISTORY = 4  # moves a played position keeps (games/tock/rules.py _HISTORY)


def test_play_then_undo_is_the_position_before_in_random_games():
    """Seeded random games on one Position: moves played, cards discarded, undos at random;
    a reference kept by copying says what each undo must give back."""
    for seed in range(12):
        rng = random.Random(seed)
        rules = rng.choice(["classic", "king-exit", "toc-fr"])
        players = rng.choice([2, 3, 4])
        pos = Position.initial(players, rules)
        kept = []  # (position before, move): what undo must give back, the last HISTORY
        cards = []
        for _ in range(120):
            if kept and rng.random() < 0.2:
                before, move = kept.pop()
                assert pos.undo() is move
                assert pos == before and pos.key() == before.key()
                continue
            if not cards:
                cards = deck(pos)
                rng.shuffle(cards)
            card = Card(cards.pop())
            moves = pos.legal_moves(card)
            if not moves:
                pos.discard(card, True)  # not kept: undo takes back the move before it
                continue
            move = rng.choice(moves)
            after = move.after.copy()
            kept.append((pos.copy(), move))
            kept = kept[-HISTORY:]
            pos.play(move)
            assert pos == after
            assert move.after == after  # the move is a value: playing it changed nothing in it
            if pos.winner() is not None:
                break
        while kept:
            before, move = kept.pop()
            assert pos.undo() is move and pos == before
        assert pos.undo() is None  # the rest are forgotten, as the board forgets them


def test_a_copy_keeps_no_history():
    pos = Position.initial(4)
    pos.play(pos.legal_moves("AS")[0])
    assert pos.copy().undo() is None
    assert pos.undo() is not None


def test_discard_returns_a_new_position_unless_asked_to_change_this_one():
    pos = Position.initial(4)
    after = pos.discard("5H")  # no pawn out: 5 has no move (T17)
    assert pos.to_dict()["turn"] == "R" and after.to_dict()["turn"] == "G"
    assert pos.discard("5H", True) is pos and pos.to_dict()["turn"] == "G"


TABLE = """table tock players=4 rules=classic
card AH          # red: a pawn out
move RC1 R18
card 5D          # green: no pawn out, discarded
button undo      # takes back red's ace (the discard is not taken back: the turn is red's)
move R18 RC1
card AS          # red again, the same move: the board and the follower agree
move RC1 R18
card KS
move GC1 G18
"""


def test_replay_follows_an_undo_after_a_discard(tmp_path):
    """The board's undo after a discard takes back the move before it; the follower used to
    keep discards on its own history and took back the discard instead: the next move did
    not follow."""
    script = tmp_path / "undo.table"
    script.write_text(TABLE)
    log = tmp_path / "undo.jsonl"
    run = [sys.executable, "-m", "plateau"]
    done = subprocess.run(
        run + ["sim", str(script), "--json", "--log", str(log)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    kinds = [e.get("type") for e in events]
    assert "discard" in kinds and "undo" in kinds and kinds.count("move") == 3
    undo = next(e for e in events if e.get("type") == "undo")
    assert undo["card"] == "AH" and undo["steps"] == [["camp", "R18"]]
    replay = subprocess.run(run + ["replay", str(log)], capture_output=True, text=True, timeout=600)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_the_script_reader_names_squares_as_the_rules_do():
    """sim/script.is_square keeps its own reading (heap): the same answers as sensor_cell."""
    from plateau.fw.games.tock.rules import CAMP_SLOT, CELLS, COLOURS, sensor_cell, square_name
    from plateau.fw.sim.script import is_square

    names = [square_name(s) for s in range(CELLS)]
    names += [CAMP_SLOT % (c, k) for c in COLOURS for k in range(1, 5)]
    rng = random.Random(5)
    alphabet = "RGBYHC0123456789X"
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(3000)]
    for n in names:
        assert is_square(n) == (sensor_cell(n) != 255), n
