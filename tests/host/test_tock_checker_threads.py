"""Two Tock checkers fed at once on two threads of one process, as the club's bridge folds its
log while its scoreboard replays what came (tests/host/test_club_trust.py failed once so: "a
path of _dp that does not play"). The rules core's 7 works in buffers of its module, one per
process (rules._SEVEN, games/tock/hints.py): each checker must still follow its own game.
Seeded positions where a 7 costs most (dense, crowded: thousands of splits, the threads
switching often inside one), each with a 7 the rules allow played on it; each thread feeds its
own checker its own events and every move must follow."""

import random
import sys
import threading
from pathlib import Path

from plateau.fw.games.tock.rules import COLOURS, Card, Position, PositionError
from plateau.games import Mismatch
from plateau.games.tock.checker import TockChecker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from tock_positions import crowded_position, dense_position, random_position  # noqa: E402


def sevens(seed: int, n: int) -> list[dict]:
    """n games' events, each a position of the seeded kind and a legal 7 played on it."""
    rng = random.Random(seed)
    evs: list[dict] = []
    while len(evs) < 2 * n:
        make = rng.choice([dense_position, dense_position, crowded_position, random_position])
        try:
            pos = Position.from_dict(make(rng).to_dict())
        except PositionError:
            continue
        if pos.winner() is not None:
            continue
        moves = pos.legal_moves(Card("7S"))
        if not moves:
            continue
        m = rng.choice(moves)
        evs.append({"type": "game", "game": "tock", "position": pos.to_dict()})
        evs.append({"type": "move", "card": "7S", "steps": m.steps(), "seat": COLOURS[m.seat]})
    return evs


def test_two_checkers_on_two_threads_each_follow_their_own_game():
    games = [sevens(seed, 40) for seed in (1, 2)]
    failed: list[str] = []

    def follow(evs: list[dict]) -> None:
        c = TockChecker()
        for ev in evs:
            try:
                c.feed(ev)
            except (Mismatch, AssertionError, IndexError) as e:
                failed.append(f"{type(e).__name__}: {e}"[:120])
        assert c.pos is not None

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the threads take turns inside a 7, as a loaded host does
    try:
        threads = [threading.Thread(target=follow, args=(evs,)) for evs in games]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert not failed, (len(failed), failed[:3])
