"""Whole games of the three card games through the simulator with the card spot (issue 31):
each generated game's `card` lines played with the spot's other actions at seeded places (a
card left lying and the next one stacked on it, two cards laid askew at once, a power cut
with a card lying on the spot), counting cards played against cards laid (none lost, none
twice) and the game's outcome against the generator's. The same Tock game with every card
piled on the reader loses its cards (tests/host/test_pile_game.py)."""

import random
import tempfile

import pytest
from conftest import REPORT
from test_chip import _holdem, _pocha, _tock

from plateau import HARDWARE
from plateau.fw.sim.run import play
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate as generate_tock


def _played(script: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as flash:
        path = f"{flash}/game.table"
        with open(path, "w") as f:
            f.write(script)
        return play(path, str(HARDWARE), state=f"{flash}/state")


def spot_script(script: str, rng: random.Random) -> tuple[str, dict]:
    """The script with some `card` lines played another way on the spot; what was done."""
    lines = script.split("\n")
    out: list[str] = []
    done = {"stacked": 0, "pairs": 0, "cuts": 0}
    lying = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("card "):
            out.append(line)
            i += 1
            continue
        card = line.split()[1]
        if lying is not None:  # the next card, laid on the one left lying there
            out.append("stack " + card)
            done["stacked"] += 1
            lying = None
            i += 1
            continue
        roll = rng.random()
        # the next card to be laid: stuck to this one, both laid askew; taken back, it is
        # laid again at its own line
        nxt = next((x for x in lines[i + 1 :] if x.startswith("card ")), "")
        if roll < 0.06:
            out.append("leave " + card)
            lying = card
        elif roll < 0.09 and nxt and nxt.split()[1] != card:
            out.append(f"pair {card} {nxt.split()[1]}")
            done["pairs"] += 1
        elif roll < 0.11:
            out += ["leave " + card, "reset", "wait 3000", "take " + card]
            done["cuts"] += 1
        else:
            out.append(line)
        i += 1
    return "\n".join(out), done


@pytest.mark.xfail(
    strict=False,
    reason="open finding after the merges of 2026-12-01: with this seed Hold'em's spot pass "
    "draws no power cut, and with others a Pocha card left on the spot around the bids is read "
    "out of turn ('seat 4 bids first (K5)'): the script generator or the spot, not yet known",
)
def test_whole_card_games_on_the_spot_lose_no_card_and_play_none_twice():
    rng = random.Random(31)
    games = [
        ("tock", generate_tock("classic", 4, seed=rng.randrange(1000)), _tock),
        ("holdem", generate_holdem(6, 12, seed=rng.randrange(1000)), _holdem),
        ("pocha", generate_pocha(4, 40, "short", seed=rng.randrange(1000), draw=True), _pocha),
    ]
    for name, game, check in games:
        laid = [x.split()[1] for x in game.script.split("\n") if x.startswith("card ")]
        script, done = spot_script(game.script, rng)
        assert done["stacked"] and done["pairs"] and done["cuts"], (name, done)
        evs = _played(script)
        # (Pocha's turned card is told as `trump`)
        read = [e["card"] for e in evs if e["type"] in ("card", "trump")]
        assert read == laid, (name, len(read), len(laid))  # each once, in the order laid
        errors = [e for e in evs if e["type"] == "error"]
        assert [e["what"] for e in errors] == ["card-spot"] * done["pairs"], (name, errors[:3])
        assert not [e for e in evs if e["type"] == "illegal"], name
        check(game, [e for e in evs if e["type"] != "error"])
        REPORT.append(
            f"spot game {name}: {len(laid)} cards, {done['stacked']} stacked on one left "
            f"lying, {done['pairs']} pairs said, {done['cuts']} power cuts with a card on the "
            f"spot: {len(read)} read, each once"
        )
