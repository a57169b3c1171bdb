"""`plateau gen`: a whole random legal Tock game written as a table script, with the hand
actions a person makes (lifts, slides over the squares on the way, captured pawns put back in
camp, a pawn lifted and put back, sensor noise). Seeded: the same seed gives the same game.

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


@dataclass
class PochaGame:
    script: str
    hands: list[dict] = field(default_factory=list)  # per hand: bids, taken, scores
    totals: dict[str, int] = field(default_factory=dict)
    ranking: list[str] = field(default_factory=list)  # seats, first place first (K10)
    places: list[tuple] = field(default_factory=list)  # (seat, total, place), as the board
    dealer: str = "1"  # the first dealer (drawn at the table when the script draws: K2)


def generate_pocha(
    players: int = 3,
    size: int = 40,
    kind: str = "short",
    seed: int = 0,
    pace: int = 150,
    draw: bool = False,
) -> PochaGame:
    """A whole random legal Pocha game as a table script: the draw for the first dealer
    (with `draw`: K2), then for each hand the dealer's turned card, the bids (`send bid`),
    and every card played in turn."""
    from plateau.fw.games.pocha.rules import (
        bid_refused,
        deck,
        first_dealer,
        legal,
        name,
        ranking,
        schedule,
        score,
        winning,
    )

    rng = random.Random(seed)
    seats = [str(i + 1) for i in range(players)]
    cards = deck(size, players)
    plan = schedule(size, players, kind)
    lines = [
        f"# generated: pocha players={players} deck={size} schedule={kind} seed={seed}",
        f"table pocha players={players} deck={size} schedule={kind} dealer=1",
        f"pace {pace}",
    ]
    game = PochaGame(script="", totals={s: 0 for s in seats})
    dealer = "1"
    if draw:  # each seat lays a card; the tied on the highest card draw again (K2)
        lines.append("send draw")
        pack = list(cards)
        rng.shuffle(pack)
        drawing = list(seats)
        while drawing:
            draws = {s: pack.pop() for s in drawing}
            lines += [f"card {name(draws[s])}" for s in drawing]
            winner, tied = first_dealer(draws, seats)
            drawing = tied or []
        dealer = game.dealer = winner
        lines.append("gather  # the draw's cards are taken back")
    k = 0
    tiebreak = False
    while True:
        n = 1 if tiebreak else plan[k]
        pack = list(cards)
        rng.shuffle(pack)
        order = seats[seats.index(dealer) + 1 :] + seats[: seats.index(dealer) + 1]
        hands = {s: pack[i * n : (i + 1) * n] for i, s in enumerate(order)}
        full = n * players == len(cards)
        turned = hands[dealer][-1] if full else pack[n * players]
        trump = turned[1]
        if tiebreak:
            lines.append("# tie-break hand")
        lines.append(f"card {name(turned)}")
        if full:
            lines.append("gather  # the dealer takes the turned card back (K4)")
        bids: dict[str, int] = {}
        for s in order:
            ok = [
                b
                for b in range(n + 1)
                if bid_refused(b, n, list(bids.values()), s == dealer) is None
            ]
            bids[s] = rng.choice(ok)
            lines.append(f"send bid {s} {bids[s]}")
        taken = {s: 0 for s in seats}
        leader = order[0]
        held = {s: list(h) for s, h in hands.items()}
        for _ in range(n):
            i = seats.index(leader)
            turn = seats[i:] + seats[:i]
            table: list = []
            for s in turn:
                c = rng.choice(legal(held[s], table, trump))
                held[s].remove(c)
                table.append(c)
                lines.append(f"card {name(c)}")
            leader = turn[winning(table, trump)]
            taken[leader] += 1
        lines.append("gather  # the cards are gathered and dealt again")
        lines.append("wait 1000")
        scores = {s: score(bids[s], taken[s]) for s in seats}
        for s in seats:
            game.totals[s] += scores[s]
        game.hands.append({"bids": bids, "taken": taken, "scores": scores})
        dealer = seats[(seats.index(dealer) + 1) % players]
        if not tiebreak:
            k += 1
        if k >= len(plan):
            best = max(game.totals.values())
            tiebreak = list(game.totals.values()).count(best) > 1
            if not tiebreak:
                break
    game.places = ranking(seats, game.totals)
    game.ranking = [s for s, _, _ in game.places]
    game.script = "\n".join(lines) + "\n"
    return game


@dataclass
class WeykickSeries:
    script: str
    matches: list[dict] = field(default_factory=list)  # per match: winner, score
    winner: str | None = None


def generate_weykick(
    seed: int = 0,
    best_of: int = 5,
    first_to: int = 10,
    pace: int = 100,
    buttons: bool = True,
    mess: float = 0.0,
    close: bool = True,
) -> WeykickSeries:
    """A whole random Weykick series as a table script: each goal a ball in a goal, seen a
    while and cleared; now and then a blip in an empty goal (noise, never a goal), a ball
    that rattles in the goal (one goal all the same), a goal taken back with the undo
    button and scored again; `button new` between matches. The expected result is kept by
    plain counting, not by the firmware's rules. `buttons=False`: undo and new are sent by
    the host instead (`send undo`, `send new`): a board that was off when a button was
    pressed never saw it, while a host's command is sent again until answered (the reset
    harness's series).

    With `mess` (0 to 1, the share of goals that meet a table incident) the script is timed
    to the millisecond (pace 0) and holds what a real match meets around its goals, none of
    it a goal (docs/weykick.md): sensor blips shorter than the debounce, a ball fumbled back
    in for a moment as it is taken out, a ball back in before the goal re-armed, a second
    ball in the other goal, balls in a goal during a pause, an undo, `new` in mid-match
    (the match again from 0-0) and `new` with the ball still in a goal. Every wait keeps
    clear of the table's thresholds (debounce 20 ms, bounce 100 ms, re-arm 400 ms, lockout
    600 ms) by a scan or more, so what counts does not hang on the 5 ms scan. `close=False`
    leaves out the incidents that hang on the re-arm time (the fumble, the ball back): for a
    harness that stops the table a while (a reset), after which the ball was out longer."""
    rng = random.Random(seed)
    press = "button" if buttons else "send"
    lines = [
        f"# generated: weykick best-of={best_of} first-to={first_to} seed={seed}"
        + (f" mess={mess}" if mess else ""),
        f"table weykick mode=first-to:{first_to} best-of={best_of} variant=football",
        f"pace {0 if mess else pace}",
    ]
    series = WeykickSeries(script="")
    wins = {"A": 0, "B": 0}
    need = best_of // 2 + 1

    def add(*words: str) -> None:
        lines.extend(words)

    def other(goal: str) -> str:
        return "B" if goal == "A" else "A"

    def incident(goal: str, score: dict) -> None:
        """After a goal into `goal` (the ball taken out): one thing that is not a goal."""
        kinds = ("blip", "both", "pause", "undo", "again", "held")
        kind = rng.choice(kinds + ("fumble", "back") if close else kinds)
        o = other(goal)
        if kind == "held" and score[o] + 1 >= first_to:
            kind = "blip"  # its goal would end the match: `new` would then be the next match
        if kind == "both" and score[o] + 1 >= first_to:
            kind = "blip"  # likewise: the match would end before its incident
        if kind == "blip":  # noise on a sensor: shorter than the debounce
            add(f"wait {rng.randrange(400, 2000, 5)}", f"glitch {rng.choice('AB')} 15")
        elif kind == "fumble":  # the ball slips back in for a moment as it is taken out
            add(f"ball {goal}", f"wait {rng.randrange(30, 70, 5)}", f"clear {goal}")
        elif kind == "back":  # back in before the goal re-armed (out 120-330 ms): said
            add(f"wait {rng.randrange(120, 330, 5)}", f"ball {goal}", "wait 200", f"clear {goal}")
        elif kind == "both":  # a second ball in the other goal while the first lies there
            add("wait 1000", f"ball {goal}", f"wait {rng.randrange(30, 300, 5)}", f"ball {o}")
            add("wait 300", f"clear {goal}", f"clear {o}")
            score[o] += 1  # the first one counts
        elif kind == "pause":  # goals while paused: not counted
            add("wait 700", f"{press} pause", "wait 300", f"ball {o}", "wait 300", f"clear {o}")
            add("wait 700", f"{press} pause" if buttons else "send resume")
        elif kind == "undo":  # the last goal taken back
            add("wait 300", f"{press} undo")
            score[o] -= 1
        elif kind == "again":  # `new` in mid-match: this match again from 0-0
            add("wait 300", f"{press} new")
            score["A"] = score["B"] = 0
        else:  # `new` with the ball in a goal: taking it out (a fumble) scores nothing
            add("wait 1000", f"ball {goal}", "wait 300", f"{press} new", "wait 300")
            add(f"clear {goal}", "wait 40", f"ball {goal}", "wait 40", f"clear {goal}")
            score["A"] = score["B"] = 0  # the goal counted before was the old match's
        add(f"wait {rng.randrange(1000, 3000, 5)}")

    while max(wins.values()) < need:
        score = {"A": 0, "B": 0}
        while max(score.values()) < first_to:
            into = rng.choice("AB")  # the goal the ball goes in; the other side scores
            side = "B" if into == "A" else "A"
            if rng.random() < 0.2:  # a blip in the empty goal, too short to be a ball
                lines.append(f"glitch {into} {rng.choice([3, 8, 15])}")
            lines.append(f"ball {into}")
            if rng.random() < 0.15:  # rattles: out and back in within the debounce
                for _ in range(rng.randint(1, 3)):
                    lines.append(f"wait {rng.choice([40, 60, 80])}")
                    lines.append(f"glitch {into} {rng.choice([10, 15, 30])}")
            lines.append(f"wait {rng.choice([100, 300, 800])}")
            lines.append(f"clear {into}")
            score[side] += 1
            if mess and max(score.values()) < first_to and rng.random() < mess:
                incident(into, score)
                continue
            lines.append(f"wait {rng.choice([700, 1000, 2000])}")
            if rng.random() < 0.05 and max(score.values()) < first_to:
                lines.append(f"{press} undo")  # taken back (a ball that was not a goal)
                lines.append("wait 300")
                score[side] -= 1
        winner = "A" if score["A"] > score["B"] else "B"
        wins[winner] += 1
        series.matches.append({"winner": winner, "score": score})
        lines.append("wait 1000")
        if max(wins.values()) < need:
            lines.append(f"{press} new  # the next match of the series")
            lines.append("wait 500")
    series.winner = "A" if wins["A"] > wins["B"] else "B"
    series.script = "\n".join(lines) + "\n"
    return series


@dataclass
class HoldemSession:
    script: str
    hands: list[dict] = field(default_factory=list)  # per hand: stacks after, all-ins, pots
    tables: int = 1  # `new` tables started when one seat had won every chip


def generate_holdem(
    seats: int = 6,
    hands: int = 50,
    seed: int = 0,
    stacks: int | list[int] = 200,
    pace: int = 100,
    draw: bool = False,
    structure: str = "no-limit",
) -> HoldemSession:
    """Whole random Hold'em hands as a table script, blinds 1/2: bets sent as the host
    sends them, community cards laid when the betting has turned them, hole cards laid at
    showdown in the order the table asks (from the left of the button). Seats go all in
    often, so hands end with side pots; when one seat has every chip, `send new` starts a
    fresh table. Played with the rules core's betting (games.holdem.betting), as `generate`
    plays Tock with the Tock rules core. `draw`: the first button is drawn for (H1: a card
    per seat, ties draw again) rather than given by the table line. `stacks`: one for every
    seat, or seat by seat (H1: `stacks=100,80,250`); `structure`: no-limit, pot-limit or
    fixed-limit (H3; fixed-limit's big bet: 4)."""
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
    if draw:
        lines.append("send draw")
        drawing, pack = list(names), rng.sample(deck, len(deck))
        while button is None:
            draws = {s: pack.pop() for s in drawing}
            lines += [f"card {name(draws[s])}" for s in drawing]
            button, drawing = first_button(draws)
        lines.append("gather  # the draw's cards are taken back")
    while len(session.hands) < hands:
        if sum(1 for s in names if chips[s] > 0) < 2:
            lines.append(f"send new {table}")
            chips = dict(zip(names, start))
            button = None
            session.tables += 1
        if session.hands or button is None:
            button = "1" if button is None else next_button(names, chips, button)
        hand = Hand(names, chips, button, structure, 1, 2)
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
