"""A pile of cards on the reader through a reset (issue 18), at the scale of whole games: a
generated Tock game with the power cut while 30 cards lie on the pile plays to its end in
`plateau sim`; and the reader's figures for piles of random tags (how long it takes stock, how
many failed exchanges), noise or not."""

import json
import subprocess
import sys

from conftest import REPORT
from readers import lay, random_uids, read_all, ready, rng

from plateau.games.tock.generate import generate


def test_whole_game_with_a_reset_while_30_cards_lie_on_the_pile(tmp_path):
    r = rng(2024)
    seed = 1 + r.below(1000)
    game = generate("classic", 4, seed=seed)
    lines = game.script.split("\n")
    cards = [i for i, line in enumerate(lines) if line.startswith("card ")]
    assert len(cards) > 52
    pile = [lines[i].split()[1] for i in cards[:30]]
    after = [lines[i].split()[1] for i in cards[30:]]
    # the power goes with 30 cards on the pile; the players wait for the table to come back
    # (a board takes seconds to boot) before laying the next card on top
    lines[cards[30] : cards[30]] = ["reset", "wait 3000"]
    lines.append("send selftest")
    script = tmp_path / "pile.table"
    script.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "plateau", "sim", str(script), "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    evs = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    piles = [e for e in evs if e["type"] == "pile"]
    assert len(piles) == 1 and sorted(piles[0]["cards"]) == sorted(pile), seed
    assert piles[0]["unknown"] == 0
    moves = [e for e in evs if e["type"] == "move"]
    assert len(moves) == len(game.moves), (seed, len(moves), len(game.moves))
    assert [e["seat"] for e in evs if e["type"] == "win"] == [game.winner]
    assert [e for e in evs if e["type"] == "error"] == [], seed
    (report,) = [e for e in evs if e["type"] == "selftest"]
    assert report["reader"] == "ok" and report["reader_errors"] == 0
    # every card after the reset was read once as a new card
    assert len([e for e in evs if e["type"] == "card"]) == len(pile) + len(after)
    REPORT.append(
        f"pile game (seed {seed}): reset with 30 cards on the pile -> one pile event of 30, "
        f"{len(after)} cards after it read once each, {len(moves)}/{len(game.moves)} moves, "
        f"reader errors {report['reader_errors']}"
    )


def test_reader_figures_for_piles():
    """How long the reader takes stock of random piles, at power-up (read_field: a poll
    every ms, blocking) and mid-game after a reader reset (a poll every 5 ms scan), with
    reads and failed exchanges, without noise and with 2 % of the answers damaged. Model
    time: the SPI accesses' own time on an ESP32 comes on top (about 15 us each, assumed)."""
    r0 = rng(52)
    for size in (10, 30, 52):
        for noise in (0.0, 0.02):
            boot = scans = reads = errors = 0
            trials = 5
            for t in range(trials):
                chip, r, clock = ready(noise=noise, seed=t + 1)
                uids = random_uids(r0, size)
                lay(chip, uids)
                t0 = clock.us
                got = r.read_field()
                boot += clock.us - t0
                assert sorted(set(got)) == sorted(uids) and all(u in uids for u in got)
                chip.lift()
                lay(chip, uids)  # lifted and laid again: the scan loop's reading
                t0 = clock.us
                got = read_all(r, clock, 40000)
                scans += clock.us - t0
                assert sorted(set(got)) == sorted(uids) and all(u in uids for u in got)
                reads += len(got)
                errors += r.errors
            REPORT.append(
                f"reader: pile of {size}, noise {noise:.0%}: power-up stocktake "
                f"{boot / 1000 / trials:.0f} ms, in the scan loop {scans / 1000 / trials:.0f} ms "
                f"(mean of {trials}), {reads / trials:.1f} reads, "
                f"{errors / trials:.1f} failed exchanges"
            )


def test_every_game_that_reads_cards_says_which_lie_on_its_pile():
    """A game with a deck that keeps Game's deal() plays its whole pile again at every
    reset (the first Snap of docs/adding-a-game.md did: cards doubled, a false game_over);
    the page's own Snap is played through a reset by tests/host/test_registry.py."""
    from plateau.fw.games import GAMES, declaration, make_game
    from plateau.fw.games.base import Game

    for name in GAMES:
        decl = declaration(name)
        game = make_game(name, lambda ev: None, (), {})
        if decl.DECK is not None:
            assert type(game).deal is not Game.deal, f"{name} reads cards and has no deal()"
