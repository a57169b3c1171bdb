"""The club's record of a Hold'em game of more than two seats (adversarial finding F2: a
3-seat game was recorded as a duel, the first seat knocked out left out of `seats`, never
rated, and tied with the runner-up). Seeded generated sessions of 3 to 5 seats played by the
simulator; the record folded from the log must name every seat and rank them by when they
went out (the last one in first; seats out in the same hand by their chips before it), as
worked out here from the log's `hand_end` events alone; the league rates every seat."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from simkit import logged

from plateau.club.league import League
from plateau.club.state import fold_log
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.logger import read_log

SESSIONS = [(3, 4), (3, 11), (4, 5), (5, 7)]  # (seats, seed)


def expected(log):
    """Each finished game's (seats, ranking) from the log: a game starts at `game` (or the
    first hand), a seat goes out at the first hand_end that leaves it no chip."""
    games, seats, out, before = [], set(), [], {}
    for _, ev, _ in read_log(log):
        if ev is None:
            continue
        if ev["type"] == "game":
            seats, out, before = set(), [], {}
        if ev["type"] != "hand_end" or not isinstance(ev.get("stacks"), dict):
            continue
        stacks = ev["stacks"]
        seats |= set(stacks)
        gone = [s for s, n in stacks.items() if n == 0 and not any(s in g for g in out)]
        for chips in sorted({before.get(s, 0) for s in gone}):
            out.append(sorted(s for s in gone if before.get(s, 0) == chips))
        alive = [s for s, n in stacks.items() if n > 0]
        before = dict(stacks)
        if len(alive) == 1:
            games.append((sorted(seats), [alive, *reversed(out)]))
    return games


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("holdem")

    def one(session):
        seats, seed = session
        script = generate_holdem(seats=seats, seed=seed, stacks=60).script
        return logged(tmp, f"h{seats}-{seed}", script)

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, SESSIONS))


def test_every_seat_recorded_and_ranked_by_when_it_went_out(logs, tmp_path):
    games = 0
    for log in logs:
        want = expected(log)
        st = fold_log(log, "t1")
        got = [(sorted(r["seats"], key=int), r["ranking"]) for r in st.finished]
        assert [(sorted(s, key=int), r) for s, r in want] == got, log.name
        games += len(got)
        league = League(tmp_path / f"{log.stem}.sqlite")
        for rec in st.finished:
            league.record(rec)
        rated = {r["player"] for r in league.standings("holdem")["ratings"]}
        assert rated == {f"t1:{s}" for rec in st.finished for s in rec["seats"]}, log.name
        league.close()
    assert games >= len(logs)  # every session ended with a table won, at least once
    print(f"club Hold'em places: {games} games of 3-5 seats, every seat ranked as it went out")
