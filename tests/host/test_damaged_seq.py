"""A damaged number in the middle of a log (a flipped digit in a line's `seq`): readers of
the log (replay, the index, the club's scoreboard: logger.Repeats) took every later event
of its boot for one already had, until a `retake` line. Seeded damages of logged games:
the damaged line is said (replay names it), and no other line is lost."""

import random

import pytest

from plateau.cli import main
from plateau.club.state import fold_log
from plateau.games import find
from plateau.index import Index
from plateau.logger import read_log
from plateau.repeats import Repeats

GAMES = ("holdem", "pocha")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("seqs")
    out = {}
    for game in GAMES:
        script = tmp / f"{game}.table"
        script.write_text(find(game).script(7, "short"))
        log = tmp / f"{game}.jsonl"
        assert main(["sim", str(script), "--log", str(log)]) == 0
        out[game] = log
    return out


def damage(rng, lines):
    """One numbered line's seq damaged; (its line number, how, the line kept by readers)."""
    numbered = [i for i, t in enumerate(lines) if '"seq":' in t]
    i = rng.choice(numbered[len(numbered) // 4 : -2])
    seq = int(lines[i].split('"seq":')[1].split(",")[0].split("}")[0])
    how = rng.choice(("up", "ahead", "digit", "back"))
    if how == "up":
        new = seq + rng.randint(100, 10**6)
    elif how == "ahead":  # the number of an event still to come
        new = seq + rng.randint(2, 6)
    elif how == "back":  # the number of an event already had
        new = rng.randint(1, seq - 1)
    else:
        digits = str(seq)
        k = rng.randrange(len(digits))
        d = rng.choice([c for c in "123456789" if c != digits[k]])
        new = int(digits[:k] + d + digits[k + 1 :])
    lines[i] = lines[i].replace(f'"seq":{seq},', f'"seq":{new},', 1)
    return i + 1, how, new > seq


def numbered(path, skip=0):
    """(boot, seq) of each event readers take, but line `skip`'s, and how often."""
    repeats, got = Repeats(), {}
    for n, ev, _ in read_log(path):
        if ev is None or repeats.seen(ev) or n == skip or "seq" not in ev:
            continue
        got[(ev["boot"], ev["seq"])] = got.get((ev["boot"], ev["seq"]), 0) + 1
    return got


def test_a_damaged_seq_mid_log_is_said_and_hides_nothing_else(logs, tmp_path, capsys):
    rng = random.Random(41)
    cases = 0
    for game, clean in logs.items():
        want = numbered(clean)
        clean_index = Index(tmp_path / f"{game}.sqlite", clean)
        clean_index.catch_up()
        rows = [r[1:6] for r in clean_index.games()]
        clean_fold = fold_log(clean, game)
        text = clean.read_text().splitlines()
        for k in range(25):
            lines = list(text)
            n, how, kept = damage(rng, lines)
            log = tmp_path / f"{game}-{k}.jsonl"
            log.write_text("\n".join(lines) + "\n")
            (boot, seq), *_ = [(ev["boot"], ev["seq"]) for m, ev, _ in read_log(clean) if m == n]
            got = numbered(log, skip=n)
            lost = set(want) - set(got) - {(boot, seq)}
            assert not lost, (game, n, how, sorted(lost)[:5])
            assert all(c == 1 for c in got.values()), (game, n, how)
            capsys.readouterr()
            assert main(["replay", str(log)]) in (0, 1)
            err = capsys.readouterr().err
            # the damaged line, or (a number already had: dropped as a repeat) the next
            # numbered one, whose number follows a hole
            after = next(m for m, t in enumerate(lines, 1) if m > n and '"seq":' in t)
            assert f"line {n}:" in err or f"line {after}:" in err, (game, n, how, err)
            if kept:  # the damaged line's event is read too: the game's figures are whole
                index = Index(tmp_path / f"{game}-{k}.sqlite", log)
                index.catch_up()
                assert [r[1:6] for r in index.games()] == rows, (game, n, how)
                index.close()
                assert fold_log(log, game).events == clean_fold.events, (game, n, how)
            cases += 1
        clean_index.close()
    assert cases == 50
