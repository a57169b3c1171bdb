"""`plateau holdem showdown` (issue 16): the odd chips of a split pot go one each to the
tied seats from the left of the button round the table (H7), whatever the order of the
arguments, with the button folded, out of the hand or still in; tens written T (as poker
hand histories write them) are cards. Seeded random showdowns, checked against the rule
written out here."""

import json
import random

from plateau.cli import main as plateau

# Every seat plays the board (a straight, no flush possible, hole cards below it): all tie.
BOARD = "AS KD QH JC TS"
LOW = [r + s for r in "23456789" for s in "SHDC"]


def showdown(capsys, bets, folded, hands, button, board=BOARD):
    args = ["holdem", "showdown", "--board", board, "--json", "--hands"]
    args += [f"{s}={h}" for s, h in hands.items()] + ["--bets"]
    args += [f"{s}={n}" for s, n in bets.items()]
    if folded:
        args += ["--folded", *(f"{s}={n}" for s, n in folded.items())]
    if button is not None:
        args += ["--button", button]
    assert plateau(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_H7_issue_example_folded_button_odd_chip_to_its_left(capsys):
    hands = {"1": "AH KH", "3": "AS KS"}
    out = showdown(capsys, {"1": 10, "3": 10}, {"2": 1}, hands, "2", "2C 3D 7H 9S JD")
    (pot,) = out["pots"]
    assert pot["shares"] == {"3": 11, "1": 10}


def test_H7_random_split_pots_odd_chips_from_the_left_of_the_button(capsys):
    rng = random.Random(16)
    odd_pots = 0
    for _ in range(300):
        n = rng.randint(2, 10)
        seats = [str(i + 1) for i in range(n)]
        rng.shuffle(seats)  # the order of the arguments says nothing
        live = seats[: rng.randint(2, n)]
        folded = {s: rng.randint(1, 30) for s in seats[len(live) :] if rng.random() < 0.7}
        bets = {s: rng.randint(1, 60) for s in live}
        top = max(bets.values())
        for s in folded:
            folded[s] = min(folded[s], top)  # a folded seat put in at most what was called
        button = str(rng.randint(1, 10))  # in the hand, folded, or a seat not in it
        cards = rng.sample(LOW, 2 * len(live))
        hands = {s: f"{cards[2 * k]} {cards[2 * k + 1]}" for k, s in enumerate(live)}
        out = showdown(capsys, bets, folded, hands, button)
        for pot in out["pots"]:
            winners = pot["eligible"]  # every hand ties
            assert pot["winners"] == sorted(winners, key=lambda s: left_of(button, s))
            share, odd = divmod(pot["amount"], len(winners))
            ordered = sorted(winners, key=lambda s: left_of(button, s))
            want = {s: share + (1 if k < odd else 0) for k, s in enumerate(ordered)}
            assert pot["shares"] == want, (bets, folded, button, pot)
            odd_pots += odd > 0
        put = sum(bets.values()) + sum(folded.values())
        assert sum(out["won"].values()) + sum(out["returned"].values()) == put
    assert odd_pots > 100


def left_of(button, seat):
    """How far round the table from the button's left a seat sits (10 seats at most)."""
    return (int(seat) - int(button) - 1) % 10


def test_H7_ten_written_T_and_a_button_not_in_the_hand(capsys):
    hands = {"4": "TH TD", "6": "2C 3C"}
    out = showdown(capsys, {"4": 5, "6": 5}, {}, hands, "9", "2D 7S 9H JC KD")
    assert out["won"] == {"4": 10}
    assert {"10H", "10D"} <= set(out["hands"]["4"]["best"])
