"""Whole games of the three card games through the simulator with the card spot (issue 31):
each generated game's `card` lines played with the spot's other actions at seeded places (a
card left lying and the next one stacked on it, two cards laid askew at once, a power cut
with a card lying on the spot), counting cards played against cards laid (none lost, none
twice) and the game's outcome against the generator's. Every game of every seed draws each
of those actions at least once: counted, and what the table said of each counted too (a
`card-spot` error for each pair, a `pile` event naming the card found lying there after
each cut). The same Tock game with every card piled on the reader loses its cards
(tests/host/test_pile_game.py). `make test` plays 3 seeds; PLATEAU_SPOT_SEEDS=N plays N.

The finding this test was marked xfail for (2026-12-01), both halves of it: with seed 31
Hold'em's pass drew no power cut (a cut at 2 % a card over its 62 cards: the generator's
fault, the test did not test what it said; now each action is placed at least once); and a
Pocha card read out of turn around the bids ('seat 4 bids first (K5)'), over seeds 1, 4, 5,
7, 11 and 16 of 20: the firmware's. The last card of the draw, or of a hand, left lying on
the spot through a cut was found at power-up and taken for the new hand's turned card (the
pile recovery of the piled flow, games/cards.py, took the last deal for gathered unless its
top two cards were both found, and on the spot only one lies there): the real turned card
was then refused. The firmware now keeps the tag last read with the game on flash and
compares the card found lying with it."""

import os
import random
import tempfile

import pytest
from conftest import REPORT
from test_chip import _pocha, _tock

from plateau import HARDWARE
from plateau.fw.sim.run import play
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate as generate_tock

# seeds played by `make test`; PLATEAU_SPOT_SEEDS=N plays N (tests/host/test_spot_games.py)
SEEDS = int(os.environ.get("PLATEAU_SPOT_SEEDS", "3"))
KINDS = ("stacked", "pairs", "cuts")


def _played(script: str) -> list[dict]:
    with tempfile.TemporaryDirectory() as flash:
        path = f"{flash}/game.table"
        with open(path, "w") as f:
            f.write(script)
        return play(path, str(HARDWARE), state=f"{flash}/state")


def _card(line: str) -> str:
    return line.split()[1]


def spot_script(script: str, rng: random.Random) -> tuple[str, dict]:
    """The script with some `card` lines played another way on the spot; what was done.
    Each kind is placed once at a card picked first (so none is left to chance), and at
    random elsewhere."""
    lines = script.split("\n")
    cards = [i for i, x in enumerate(lines) if x.startswith("card ")]
    # a pair needs a next card of another name; a card left lying, a next card before the
    # cards are gathered (the one stacked on it). Forced cards are not next to each other
    # (a card stacked on one left lying is played so, whatever was drawn for it)
    nexts = range(len(cards) - 1)
    pairable = [k for k in nexts if _card(lines[cards[k]]) != _card(lines[cards[k + 1]])]
    gathered = [i for i, x in enumerate(lines) if x.startswith("gather")]
    stackable = [k for k in nexts if not any(cards[k] < g < cards[k + 1] for g in gathered)]
    # and a cut at a deal's last card (the cards gathered after it: the next deal's first
    # card comes after a power-up that found it lying there)
    last = [k for k in nexts if k not in stackable]
    picked: dict[int, str] = {}
    forcing = [("pair", pairable), ("leave", stackable), ("cut", range(len(cards)))]
    for kind, among in forcing + [("cut", last)] * bool(last):
        free = [k for k in among if not {k - 1, k, k + 1} & set(picked)]
        picked[rng.choice(free)] = kind
    forced = {cards[k]: kind for k, kind in picked.items()}
    out: list[str] = []
    done = {"stacked": 0, "pairs": 0, "cuts": 0}
    lying = None
    for i, line in enumerate(lines):
        if line.startswith("gather"):
            lying = None  # the cards gathered: the one lying on the spot too
        if not line.startswith("card "):
            out.append(line)
            continue
        card = _card(line)
        if lying is not None:  # the next card, laid on the one left lying there
            out.append("stack " + card)
            done["stacked"] += 1
            lying = None
            continue
        # the next card to be laid: stuck to this one, both laid askew; taken back, it is
        # laid again at its own line
        nxt = next((_card(x) for x in lines[i + 1 :] if x.startswith("card ")), None)
        roll = rng.random()
        kind = forced.get(i)
        if kind is None:
            kind = (
                "leave" if roll < 0.06 else "pair" if roll < 0.09 else "cut" if roll < 0.11 else ""
            )
        if kind == "pair" and (nxt is None or nxt == card):
            kind = ""
        if kind == "leave":
            out.append("leave " + card)
            lying = card
        elif kind == "pair":
            out.append(f"pair {card} {nxt}")
            done["pairs"] += 1
        elif kind == "cut":
            out += ["leave " + card, "reset", "wait 3000", "take " + card]
            done["cuts"] += 1
        else:
            out.append(line)
    return "\n".join(out), done


def _holdem(session, events: list[dict]) -> None:
    """Hold'em's outcome: the stacks after every hand, every bet taken (test_chip's check
    asks side pots of its seeds besides, which a 12-hand session may not have)."""
    ends = [e for e in events if e["type"] == "hand_end"]
    assert [e["stacks"] for e in ends] == [h["stacks"] for h in session.hands]
    assert all(a["ok"] for a in events if a["type"] == "answer")


def games(seed: int) -> list:
    rng = random.Random(seed)
    return [
        ("tock", generate_tock("classic", 2 + seed % 3, seed=rng.randrange(1000)), _tock),
        ("holdem", generate_holdem(6, 12, seed=rng.randrange(1000)), _holdem),
        ("pocha", generate_pocha(4, 40, "short", seed=rng.randrange(1000), draw=True), _pocha),
    ]


@pytest.mark.parametrize("seed", [31 + k for k in range(SEEDS)])
def test_whole_card_games_on_the_spot_lose_no_card_and_play_none_twice(seed):
    rng = random.Random(seed * 7919)
    for name, game, check in games(seed):
        laid = [_card(x) for x in game.script.split("\n") if x.startswith("card ")]
        script, done = spot_script(game.script, rng)
        assert all(done[k] for k in KINDS), (name, done)  # each action really drawn
        evs = _played(script)
        # (Pocha's turned card is told as `trump`)
        read = [e["card"] for e in evs if e["type"] in ("card", "trump")]
        assert read == laid, (name, seed, len(read), len(laid))  # each once, in the order laid
        errors = [e for e in evs if e["type"] == "error"]
        assert [e["what"] for e in errors] == ["card-spot"] * done["pairs"], (name, errors[:3])
        # each cut: the card lying there found at power-up, said, not played again
        piles = [e for e in evs if e["type"] == "pile"]
        cut = [x.split()[1] for x in script.split("\n") if x.startswith("take ")]
        assert len(piles) == done["cuts"] == len(cut), (name, seed, piles, done)
        spanish = "es:" if name == "pocha" else ""
        assert [p["cards"] for p in piles] == [[spanish + c] for c in cut], (name, seed)
        assert not [e for e in evs if e["type"] == "illegal"], name
        check(game, [e for e in evs if e["type"] != "error"])
        REPORT.append(
            f"spot game {name} (seed {seed}): {len(laid)} cards, {done['stacked']} stacked on "
            f"one left lying, {done['pairs']} pairs said, {done['cuts']} power cuts with a card "
            f"on the spot ({len(piles)} found there, none played again): {len(read)} read, "
            "each once"
        )
