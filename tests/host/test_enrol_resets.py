"""Enrolment under kill -9 (issue 17): a whole-deck enrolment session on the simulated board
(enrol, a tag, the next card...), the board killed at seeded points (on a command, a tag, a
save under way) and restarted on the same flash and table, `plateau log` logging throughout
as the reset harness does it (plateau/resets.py). What was confirmed (an `enrolled` event the
host logged) must be on the flash at the end, every tag there must be the card it was laid
for, and the tags still known after the last restart are counted."""

import json
import random

from conftest import REPORT

from plateau.enrol import DECKS
from plateau.restarts import SAVING, run

CARDS = sorted(set(DECKS["french"]))[:24]


def session(rng: random.Random) -> tuple[str, dict[str, str]]:
    """A table script enrolling CARDS in a random order, one new tag each, and the tags."""
    cards = list(CARDS)
    rng.shuffle(cards)
    tags = {f"04{rng.getrandbits(24):06X}{n:06X}": c for n, c in enumerate(cards)}
    lines = ["table tock players=4", "wait 300"]
    for n, (uid, card) in enumerate(tags.items()):
        lines += [f"send enrol card={card}", f"tag {uid}", "wait 700"]
        if n % 4 == 3:
            lines.append("gather")  # the cards off the reader, as a person clears it
    return "\n".join(lines) + "\n", tags


def test_kill_9_during_enrolment_loses_no_confirmed_tag(tmp_path):
    rng = random.Random(1717)
    text, tags = session(rng)
    acting = [n + 1 for n, line in enumerate(text.split("\n")) if line.split()[:1]]
    kills = sorted(
        (rng.choice(acting[2:]), rng.choice((0, 0.0005, 0.002, 0.01, SAVING))) for _ in range(16)
    )
    got = run(text, kills, "tock", tmp_path / "run")
    confirmed = {e["uid"]: e["card"] for e in got.events if e.get("type") == "enrolled"}
    refused = [e for e in got.events if e.get("type") == "error" and e.get("what") == "enrol"]
    flash = json.loads((tmp_path / "run" / "flash" / "tags.json").read_text())["state"]["tags"]
    lost = {u: c for u, c in confirmed.items() if flash.get(u) != c}
    wrong = {u: c for u, c in flash.items() if tags.get(u) != c}
    REPORT.append(
        f"enrolment under kill -9: {got.kills} kills over {len(tags)} tags: "
        f"{len(confirmed)} confirmed, {len(flash)} on flash, {len(lost)} confirmed and lost, "
        f"{len(wrong)} as a wrong card, {len(refused)} refused"
    )
    assert got.kills >= 12, got.stderr[-2000:]
    assert got.finished, got.stderr[-2000:]
    assert lost == {} and wrong == {}
    assert refused == []  # each tag is laid for its own card only
    # a tag laid as the board went down lies on the reader at the restart: the pile, not an
    # enrolment (the person lays it again); every other one is enrolled
    assert len(flash) >= len(tags) - got.kills, (len(flash), got.kills)
