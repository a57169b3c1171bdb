"""Texas Hold'em's generator (`plateau gen --game holdem`, the harnesses' Hold'em sessions)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class HoldemSession:
    script: str
    hands: list[dict] = field(default_factory=list)  # per hand: stacks after, all-ins, pots
    tables: int = 1  # `new` tables started when one seat had won every chip


def generate(
    seats: int = 6,
    hands: int = 50,
    seed: int = 0,
    stacks: int | list[int] = 200,
    pace: int = 100,
    draw: bool = False,
    structure: str = "no-limit",
    to_the_end: bool = False,
    raise_every: int = 10,
) -> HoldemSession:
    """Whole random Hold'em hands as a table script, blinds 1/2: bets sent as the host
    sends them, community cards laid when the betting has turned them, hole cards laid at
    showdown in the order the table asks (from the left of the button). Seats go all in
    often, so hands end with side pots; when one seat has every chip, `send new` starts a
    fresh table. Played with the rules core's betting (games.holdem.betting), as `generate`
    plays Tock with the Tock rules core. `draw`: the first button is drawn for (H1: a card
    per seat, ties draw again) rather than given by the table line. `stacks`: one for every
    seat, or seat by seat (H1: `stacks=100,80,250`); `structure`: no-limit, pot-limit or
    fixed-limit (H3; fixed-limit's big bet: 4). `to_the_end`: the game is played until one
    seat has every chip (a league result), `hands` at most, the blinds doubled every
    `raise_every` hands (`send blinds`, between hands, as a club's blind clock does), so that
    it ends."""
    from plateau.fw.games.holdem.betting import Hand, Refused, first_button, next_button
    from plateau.fw.games.holdem.hands import name

    rng = random.Random(seed)
    names = [str(i + 1) for i in range(seats)]
    deck = [(r, s) for r in range(2, 15) for s in range(4)]
    start = [stacks] * seats if isinstance(stacks, int) else list(stacks)
    table = f"seats={seats} stacks={','.join(str(n) for n in start)} blinds=1/2 button=1"
    table += f" structure={structure}"
    lines = [
        f"# generated: holdem seats={seats} hands={hands} seed={seed} structure={structure}",
        f"table holdem {table}",
        f"pace {pace}",
    ]
    session = HoldemSession(script="")
    chips = dict(zip(names, start))
    button = None
    small = 1  # the blinds: small/2*small (H2)
    if draw:
        lines.append("send draw")
        drawing, pack = list(names), rng.sample(deck, len(deck))
        while button is None:
            draws = {s: pack.pop() for s in drawing}
            lines += [f"card {name(draws[s])}" for s in drawing]
            button, drawing = first_button(draws)
        lines.append("gather  # the draw's cards are taken back")
    while len(session.hands) < hands:
        if to_the_end and session.hands and sum(1 for s in names if chips[s] > 0) < 2:
            break  # one seat has every chip: the game's end
        if to_the_end and session.hands and len(session.hands) % raise_every == 0:
            small *= 2
            lines.append(f"send blinds {small}/{2 * small}  # the blind clock's next level")
        if sum(1 for s in names if chips[s] > 0) < 2:
            lines.append(f"send new {table}")
            chips = dict(zip(names, start))
            button = None
            session.tables += 1
        if session.hands or button is None:
            button = "1" if button is None else next_button(names, chips, button)
        hand = Hand(names, chips, button, structure, small, 2 * small)
        lines.append(f"# hand {len(session.hands) + 1}")
        lines.append("send hand")
        cards = rng.sample(deck, 5 + 2 * seats)
        board, hole = cards[:5], {s: cards[5 + 2 * i : 7 + 2 * i] for i, s in enumerate(names)}
        laid = 0
        allins = 0
        while not hand.over and hand.to_act is not None:
            seat = hand.to_act
            for action, amount in _holdem_choices(hand, seat, rng):
                try:
                    hand.act(seat, action, amount)
                except Refused:
                    continue
                break
            else:
                raise AssertionError("no legal action for seat " + seat)
            allins += action == "allin"
            lines.append(f"send {action} {seat}" + (f" {amount}" if amount else ""))
            due = 5 if hand.to_act is None else (0, 3, 4, 5)[hand.street]
            if hand.over:
                due = laid
            while laid < due:
                lines.append(f"card {name(board[laid])}")
                laid += 1
        pots = []
        while not hand.over and laid < 5:  # nobody had a choice to make (H2, H4): the
            lines.append(f"card {name(board[laid])}")  # cards are turned, no betting
            laid += 1
        if not hand.over:  # showdown: the seats still in show, from the left of the button
            lines.append("# showdown")
            for s in hand.live():
                lines.append(f"card {name(hole[s][0])}")
                lines.append(f"card {name(hole[s][1])}")
            settled, _ = hand.showdown({s: hole[s] for s in hand.live()}, board)
            pots = [(amount, eligible) for amount, eligible, _, _ in settled]
        lines.append("gather  # the cards are gathered")
        lines.append(f"wait {rng.choice([300, 600])}")
        chips.update(hand.stack)
        session.hands.append({"stacks": dict(chips), "allins": allins, "pots": pots})
    session.script = "\n".join(lines) + "\n"
    return session


def _holdem_choices(hand, seat: str, rng: random.Random) -> list[tuple[str, int]]:
    """The actions a random player tries, in order of preference (the rules refuse what
    they forbid and the next is tried): all in often, so that side pots are common."""
    owe = hand.current - hand.bet[seat]
    r = rng.random()
    raise_to = hand.current + hand.min_raise * rng.choice([1, 1, 2, 3])
    prefs = []
    if r < 0.03:
        prefs.append(("allin", 0))
    elif r < 0.25:
        prefs.append(("raise" if hand.current else "bet", raise_to))
    elif r < 0.45 and owe > 0:
        prefs.append(("fold", 0))
    prefs += [("check", 0), ("call", 0), ("allin", 0), ("fold", 0)]
    return prefs
