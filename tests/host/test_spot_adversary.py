"""The card spot's adversary (issue 31): whole generated games of Tock, Hold'em and Pocha with
their `card` lines played by a seeded generator of hostile hands on the spot, through
`plateau sim` (the firmware under MicroPython: the 32-bit build with the firmware frozen at an
ESP32's heap when `make mp32` built it, else the 64-bit one):

- a card left lying on the spot, then moved off late, or the next card stacked on it (aligned:
  neither answers until the one under it is slid out), or the next card laid on it and moved
  off unread (the player saw no confirmation), then laid again once the spot is clear. That
  last one wakes the card under it (alone again, its tag powers up fresh): it is read again
  and refused as played already, as the same card lifted and laid again would be (the reader
  cannot tell the two apart; docs/protocol.md, "Cards found again at power-up", limits);
- two cards laid askew at once (both answer: said, the second taken back and laid later);
- power cuts at random places, with a card lying on the spot (read before the cut, it is found
  there at power-up) or none, a card left lying through one or two cuts;
- tags laid between the cards: unknown tags, and cards of the other deck (a Spanish card at a
  French table, a French one at Pocha).

Counted from what the table said: every card laid is taken once, never twice, never lost, in
the order laid (`card`, Pocha's `trump`); every cut with a card lying there finds it (one
`pile` event naming it, nothing played again); every pair is said (`card-spot`), every unknown
tag and card of the other deck refused once, every card woken under one moved off unread
refused once by name; no other error, no `illegal`; and each game's outcome is the
generator's (Tock's moves and winner, Hold'em's stacks after every hand, Pocha's scores and
places). Cuts at every point inside the reading of a card (before its read, between its read
and its flash write, between the writes) are tests/firmware/test_sim_spot_cuts.py's.

`make test` plays seed 1; PLATEAU_SPOT_ADVERSARY=N plays seeds 1..N (the long form)."""

import json
import os
import random
import subprocess
import sys

import pytest
from conftest import REPORT
from test_chip import CHIP_HEAP, MP32, _pocha, _tock
from test_spot_games import _holdem

from plateau import HARDWARE
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate as generate_tock

SEEDS = int(os.environ.get("PLATEAU_SPOT_ADVERSARY", "1"))
TAGS = json.loads((HARDWARE / "tags.json").read_text())["tags"]


# what the generator places at least once in every game, each at a card picked first (the
# rest at random): a card left lying then stacked on, laid on unread or moved off late, or
# through a cut; a pair; a stranger's tag or a cut with the spot clear
FORCED = (
    "leave:stack",
    "leave:blind",
    "leave:late",
    "leave:cut",
    "pair",
    "unknown",
    "deck",
    "cut",
)


class Hostile:
    """Rewrites a generated script's hands on the spot (see the module's doc), keeping track
    of what lies there, so that every card of the script is taken once and in its order; what
    it did is counted in `done`, what the table must say of it in `piles` and `woken`."""

    def __init__(self, rng: random.Random, spanish: bool):
        self.rng = rng
        self.out: list[str] = []
        self.lying: str | None = None  # the card left lying on the spot (read already)
        self.follow: str | None = None  # what the next card does with it, when forced
        self.done = dict.fromkeys(
            ("left", "late", "stacked", "blind", "pairs", "cuts", "cuts_lying", "unknown", "deck"),
            0,
        )
        self.piles: list[str] = []  # the card each cut finds lying there, in order
        self.woken: list[str] = []  # the card under each card laid on it and moved off unread
        # the other deck's tags, each laid once (a refusal is said once between two cards)
        other = [u for u, c in TAGS.items() if c.startswith("es:") != spanish]
        self.others = rng.sample(other, len(other))
        self.prefix = "es:" if spanish else ""

    def cut(self) -> None:
        self.out += ["reset", f"wait {self.rng.choice((300, 800, 3000))}"]
        self.done["cuts"] += 1
        if self.lying is not None:
            self.done["cuts_lying"] += 1
            self.piles.append(self.prefix + self.lying)

    def stranger(self, kind: str) -> None:
        """A tag laid on the clear spot, read and moved off: unknown, or of the other deck."""
        if kind == "unknown":
            self.out.append("tag 04" + "".join(f"{self.rng.randrange(256):02X}" for _ in range(6)))
        else:
            self.out.append("tag " + self.others.pop())
        self.done[kind] += 1

    def between(self) -> None:
        """Before some actions: now and then a cut, or (the spot clear) a stranger's tag."""
        roll = self.rng.random()
        if roll < 0.015:
            self.cut()
        elif self.lying is None and roll < 0.025:
            self.stranger("unknown")
        elif self.lying is None and roll < 0.035 and len(self.others) > 1:
            self.stranger("deck")

    def card(self, card: str, nxt: str | None, force: str | None = None) -> None:
        rng = self.rng
        if self.lying is not None:
            under = self.lying
            roll = rng.random()
            kind = self.follow or ("stack" if roll < 0.4 else "blind" if roll < 0.7 else "late")
            if force and not self.follow:
                kind = "late"  # (the card's forced action comes next)
            self.follow = None
            self.lying = None
            if kind == "stack":  # laid on it: slid out from under, this one read
                self.out.append("stack " + card)
                self.done["stacked"] += 1
                return
            if kind == "blind":  # laid on it, unread, moved off; the spot cleared; laid again
                self.out += ["card " + card, "take " + under]
                self.done["blind"] += 1
                self.woken.append(self.prefix + under)  # alone again: read again, refused
            else:
                self.out.append("take " + under)
                self.done["late"] += 1
        if force in ("unknown", "deck"):
            self.stranger(force)
        elif force == "cut":
            self.cut()
        roll = rng.random()
        if force and force.startswith("leave") or not force and roll < 0.08:
            self.out.append("leave " + card)
            self.lying = card
            self.done["left"] += 1
            if force:
                self.follow = force.split(":")[1]
                if self.follow == "cut":
                    self.follow = None
                    self.cut()
            elif rng.random() < 0.3:  # and the power goes while it lies there (maybe twice)
                self.cut()
                if rng.random() < 0.2:
                    self.cut()
        elif force == "pair" or not force and roll < 0.12 and nxt is not None and nxt != card:
            self.out.append(f"pair {card} {nxt}")  # the second taken back, laid at its line
            self.done["pairs"] += 1
        else:
            self.out.append("card " + card)

    def script(self, script: str) -> str:
        lines = script.split("\n")
        cards = [i for i, x in enumerate(lines) if x.startswith("card ")]
        names = [lines[i].split()[1] for i in cards]
        gathers = [i for i, x in enumerate(lines) if x.startswith("gather")]

        def fits(kind: str, k: int) -> bool:
            if kind.startswith("leave"):  # the next card meets it (no gather between)
                return k + 1 < len(cards) and not any(cards[k] < g < cards[k + 1] for g in gathers)
            if kind == "pair":
                return k + 1 < len(cards) and names[k + 1] != names[k]
            return True

        forced: dict[int, str] = {}
        for kind in FORCED:  # none within two cards of another (a card left lying before)
            free = [k for k in range(1, len(cards)) if fits(kind, k)]
            free = [k for k in free if not any(abs(k - j) < 3 for j in forced)]
            forced[self.rng.choice(free)] = kind
        at = {cards[k]: kind for k, kind in forced.items()}
        for i, line in enumerate(lines):
            # (before a card, a command, a gather or a wait: the pawns at rest, as a cut
            # mid-move held longer than the illegal-board time is said as `illegal`)
            if line.startswith(("card ", "send ", "gather", "wait ")):
                self.between()
            if line.startswith("gather"):
                self.lying = None  # gathered with the rest
                self.follow = None
            if line.startswith("card "):
                nxt = next((x.split()[1] for x in lines[i + 1 :] if x.startswith("card ")), None)
                self.card(line.split()[1], nxt, at.get(i))
            else:
                self.out.append(line)
        return "\n".join(self.out)


def sim(path) -> list[dict]:
    """The events of `plateau sim --json` on the script at `path`."""
    cmd = [sys.executable, "-m", "plateau", "sim", "--json", str(path)]
    if MP32:
        cmd += ["--micropython", MP32, "--heap", str(CHIP_HEAP)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]


def games(seed: int) -> list:
    rng = random.Random(seed)
    return [
        ("tock", generate_tock("classic", 2 + seed % 3, seed=rng.randrange(1000)), _tock),
        ("holdem", generate_holdem(6, 20, seed=rng.randrange(1000)), _holdem),
        ("pocha", generate_pocha(4, 40, "short", seed=rng.randrange(1000), draw=True), _pocha),
    ]


@pytest.mark.parametrize("game", ("tock", "holdem", "pocha"))
@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
def test_the_spots_adversary_loses_no_card_and_plays_none_twice(game, seed, tmp_path):
    name, generated, check = next(g for g in games(seed) if g[0] == game)
    rng = random.Random(seed * 1009 + len(name))
    hostile = Hostile(rng, spanish=name == "pocha")
    script = hostile.script(generated.script)
    done = hostile.done
    # the generator draws each of its actions in every game (else the test tests less)
    assert all(done[k] for k in ("stacked", "blind", "late", "pairs", "cuts_lying")), done
    assert done["unknown"] and done["deck"] and done["cuts"] > done["cuts_lying"], done
    path = tmp_path / f"{name}.table"
    path.write_text(script + "\n")
    evs = sim(path)
    laid = [x.split()[1] for x in generated.script.split("\n") if x.startswith("card ")]
    read = [e["card"] for e in evs if e["type"] in ("card", "trump")]
    # every card read once, in the order laid: none lost, none twice
    assert read == laid, (name, seed, len(read), len(laid), _first_difference(read, laid))
    piles = [e for e in evs if e["type"] == "pile"]
    assert [p["cards"] for p in piles] == [[c] for c in hostile.piles], (name, seed, piles)
    errors = [e for e in evs if e["type"] == "error"]
    spot = [e for e in errors if e["what"] == "card-spot"]
    refused = [e for e in errors if e["what"] in ("unknown-tag", "card", "card-replayed")]
    assert len(spot) == done["pairs"], (name, seed, len(spot), done)
    expected = done["unknown"] + done["deck"] + done["blind"]
    assert len(refused) == expected, (name, seed, refused[:4], done)
    assert len(spot) + len(refused) == len(errors), (name, seed, errors[:4])
    # the cards woken again, refused by name (a card of the deck in play: the other deck's
    # and unknown tags aside)
    ours = [e.get("card") or "" for e in refused]
    ours = [c for c in ours if c and c.startswith(hostile.prefix)]
    if not hostile.prefix:
        ours = [c for c in ours if not c.startswith("es:")]
    assert ours == hostile.woken, (name, seed, ours, hostile.woken)
    assert not [e for e in evs if e["type"] == "illegal"], (name, seed)
    resumed = [e for e in evs if e["type"] == "resumed"]
    assert len(resumed) >= done["cuts"], (name, seed, len(resumed), done)
    check(generated, [e for e in evs if e["type"] != "error"])
    REPORT.append(
        f"spot adversary {name} (seed {seed}): {len(read)} cards taken once each of "
        f"{len(laid)} laid; {done['left']} left lying ({done['stacked']} stacked on, "
        f"{done['blind']} laid on unread, each woken and refused once, {done['late']} moved "
        f"off late), {done['pairs']} pairs "
        f"said, {done['cuts']} power cuts ({done['cuts_lying']} with a card lying there, each "
        f"found and not played again), {done['unknown']} unknown tags and {done['deck']} cards "
        "of the other deck refused; outcome as generated"
    )


def _first_difference(a: list, b: list) -> tuple:
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return i, a[i : i + 3], b[i : i + 3]
