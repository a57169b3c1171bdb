"""Tock's generator (`plateau gen --game tock`, the harnesses' Tock games): a whole random
legal game written as a table script, with the hand actions a person makes (lifts, slides
over the squares on the way, captured pawns put back in camp, a pawn lifted and put back,
sensor noise). Seeded: the same seed gives the same game.

The game is played with the host's copy of the rules core; the script records the moves it
made, so a test can check that the firmware reports exactly these moves and nothing else."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from plateau.fw.games.tock.rules import (
    ANY,
    CAMP_SLOT,
    CELLS,
    COLOURS,
    TRACK,
    Card,
    Position,
    entry_square,
    sensor_cell,
    square_name,
)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@dataclass
class Game:
    script: str
    moves: list[dict] = field(default_factory=list)  # {"card", "steps"} per move played
    discards: list[str] = field(default_factory=list)
    final: Position | None = None
    winner: str | None = None


class Hands:
    """The physical board while the script is written: which sensors see a magnet."""

    def __init__(self, pos: Position, rng: random.Random, noise: float):
        self.rng = rng
        self.noise = noise
        self.on: set[str] = set()
        self.lines: list[str] = []
        for s in range(CELLS):
            if pos.cells[s]:
                self.on.add(square_name(s))
        for c in pos.colours():
            for k in range(pos.camp(c)):
                self.on.add(CAMP_SLOT % (COLOURS[c], k + 1))

    def act(self, line: str) -> None:
        self.lines.append(line)
        if self.noise and self.rng.random() < self.noise:
            sq = self.rng.choice(sorted(self.on))
            self.lines.append(f"glitch {sq} {self.rng.choice([1, 2, 3, 5, 8])}")

    def lift(self, sq: str) -> None:
        assert sq in self.on, sq
        self.on.discard(sq)
        self.act(f"lift {sq}")

    def place(self, sq: str) -> None:
        assert sq not in self.on, sq
        self.on.add(sq)
        self.act(f"place {sq}")

    def camp_slot(self, colour: str, taken: bool) -> str:
        names = [CAMP_SLOT % (colour, k) for k in range(1, 5)]
        slots = [n for n in names if (n in self.on) == taken]
        return self.rng.choice(slots)

    def slide(self, src: int, dst: int) -> None:
        """Lift, slide over a few squares on the way (forward on the track), set down."""
        self.lift(square_name(src))
        if src < TRACK and dst < TRACK and self.rng.random() < 0.5:
            s = (src + 1) % TRACK
            hops = 0
            while s != dst and hops < 3:
                name = square_name(s)
                if name not in self.on:
                    self.place(name)
                    self.lift(name)
                s = (s + 1) % TRACK
                hops += 1
        self.place(square_name(dst))

    def capture(self, sq: str, victim: str) -> None:
        """The pawn on sq is taken off and put back in its camp."""
        self.lift(sq)
        self.place(self.camp_slot(victim, taken=False))


def play_move(hands: Hands, before: Position, move) -> None:
    """The hand actions of one move: each part in the rules' order, captured pawns back to
    camp, then whatever else the move changed (a waiting pawn slipping into CH1)."""
    victims = {s: COLOURS[before.cells[s] - 1] for s in range(TRACK) if before.cells[s]}
    if move.kind == "swap":
        # both pawns in the air at once, then set down crossed (for two pawns of one colour
        # that is the only sign of a swap the sensors get: see the README)
        (_, a, b), _ = move.parts
        hands.lines.append("# jack swap: the next 4 actions")
        hands.lift(square_name(a))
        hands.lift(square_name(b))
        hands.place(square_name(a))
        hands.place(square_name(b))
        return
    captured = set(move.captures)
    exact16 = before.flags["home_entry"] == "exact16"
    waiting = {c for c in range(4) if before.waiting >> c & 1}
    for c, src, dst in move.parts:
        _enter_waiting(hands, waiting)
        name = square_name(dst)
        # where the pawn lands: its end square, or its C16 when it went on into CH1 (T14)
        landing = (
            dst if dst < TRACK else entry_square(c) if src is not None and src < TRACK else None
        )
        if landing is not None and square_name(landing) in captured:
            hands.capture(square_name(landing), victims[landing])
            captured.discard(square_name(landing))  # a later part may end there too
        if src is None:
            hands.lift(hands.camp_slot(COLOURS[c], taken=True))
            hands.place(name)
        else:
            if src == entry_square(c):
                waiting.discard(c)
            hands.slide(src, dst)
        if exact16 and dst == entry_square(c) and src is not None:
            waiting.add(c)  # landed on its C16 with CH1 taken: queued for home
    _enter_waiting(hands, waiting)
    # anything the parts did not cover: a waiting pawn entering its home
    after = move.after
    for s in range(CELLS):
        name = square_name(s)
        if name in hands.on and not after.cells[s]:
            hands.lift(name)
    for s in range(CELLS):
        name = square_name(s)
        if after.cells[s] and name not in hands.on:
            hands.place(name)


def _enter_waiting(hands: Hands, waiting: set[int]) -> None:
    """A waiting pawn goes from C16 into CH1 as soon as CH1 is free (T14)."""
    for c in sorted(waiting):
        entry, first = square_name(entry_square(c)), f"{COLOURS[c]}H1"
        if entry in hands.on and first not in hands.on:
            hands.lift(entry)
            hands.place(first)
            waiting.discard(c)


def generate(
    rules: str = "classic",
    players: int = 4,
    seed: int = 0,
    noise: float = 0.02,
    pace: int = 150,
    max_cards: int = 3000,
    fumble: float = 0.05,
) -> Game:
    rng = random.Random(seed)
    pos = Position.initial(players, rules)
    hands = Hands(pos, rng, noise)
    header = [
        f"# generated: plateau gen --rules {rules} --players {players} --seed {seed}",
        f"table tock players={players} rules={rules}",
        f"pace {pace}",
    ]
    game = Game(script="")
    deck: list[str] = []
    for _ in range(max_cards):
        if not deck:
            deck = [r + s for r in RANKS for s in "SHDC"] + ["X"] * pos.flags["jokers"]
            rng.shuffle(deck)
            if game.moves or game.discards:
                hands.lines.append("gather  # the pile is collected and shuffled")
                hands.lines.append("wait 5000")
        card = Card(deck.pop())
        moves = pos.legal_moves(card)
        if pos.turn == ANY:
            # After a joker the board cannot tell which seat moved when several could have
            # made the same move: the table takes the first in seat order, and so do we.
            first: dict[bytes, object] = {}
            for m in moves:
                first.setdefault(bytes(m.after.cells), m)
            moves = list(first.values())
        hands.act(f"card {card}")
        if not moves:
            game.discards.append(str(card))
            pos = pos.discard(card)
            continue
        if rng.random() < fumble:  # a pawn picked up and put back: not a move
            sq = rng.choice(sorted(s for s in hands.on if sensor_cell(s) < CELLS) or ["-"])
            if sq != "-":
                hands.lift(sq)
                hands.place(sq)
        if rng.random() < 0.85:  # mostly a sensible player: the move that gets furthest
            move = max(moves, key=lambda m: (progress(m.after, m.seat), rng.random()))
        else:
            move = rng.choice(moves)
        play_move(hands, pos, move)
        hands.lines.append(f"wait {rng.choice([200, 300, 500])}")
        game.moves.append({"card": str(card), "steps": move.steps()})
        pos = move.after
        if pos.winner() is not None:
            game.winner = pos._seat_name(pos.winner())
            break
    game.final = pos
    game.script = "\n".join(header + hands.lines) + "\n"
    return game


def progress(p: Position, seat: int) -> int:
    """How far a seat's pawns have got: home counts most, then the distance travelled (what
    a sensible player maximises)."""
    score = 0
    for c in p.seat_colours(seat):
        for s in range(CELLS):
            if p.cells[s] == c + 1:
                score += 200 if s >= TRACK else 10 + (s - c * 18 - 17) % TRACK
    return score
