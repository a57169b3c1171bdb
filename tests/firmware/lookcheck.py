# What the players see, checked against the rules (issue 29): a table script played through
# the simulated table and, each time the table has finished drawing after a change (its
# output stage idle), the LEDs and the displays read off the chip models (sim/look.py: the
# LED chain's latched frame, the SH1106 glass decoded back to text and digits) and compared
# with what the rules core says of the game at that moment, computed here on its own:
#   Tock: the colour to play at its home; with a card laid and no pawn lifted, the pawns lit
#   white are exactly those that some legal move of the card moves (Position.legal_moves:
#   every part's pawn); with a pawn lifted, the squares lit white are exactly the ends of its
#   parts over all legal moves; an `illegal` not yet corrected: the squares blinking red are
#   exactly those its `fix` names (a camp named as a whole: its four slots);
#   Weykick: the score in big digits on each end's display (that end's side first), the
#   clock, a goal's light blinking after it;
#   Hold'em: the seat to act and the pot; Pocha: the seat to play and every seat's bid/taken;
#   every game: the card spot green after a card read, red after a refused one; a reason
#   (an event's `why`) on the displays for its time; no chip model's datasheet violated; the
#   chain's current never above the cap.
# Counts go to stderr as one JSON line; a mismatch raises with what was seen and expected.
#   micropython -X heapsize=... -m lookcheck SCRIPT HWDIR STATEDIR
import json
import sys

import sim.run as run
from sim import look

COUNTS = {"checks": 0, "pawns": 0, "lifted": 0, "fix": 0, "displays": 0, "spot": 0}
_NAMES = ("RED", "GREEN", "BLUE", "YELLOW")


def fail(what, seen, want, sim):
    raise AssertionError(
        "%s: the table shows %r, the rules say %r (%s, t=%d)"
        % (what, seen, want, sim.game.about()["game"], sim.clock.now)
    )


class Checker:
    def __init__(self, sim):
        self.sim = sim
        self.redraws = -1  # the stage's redraws when last checked
        self.frame = None  # the LED frame then (its blinking phase)
        self.heard = []  # (event, world ms) of the events the stage heard, the last few
        self.why = None  # the last one that gave a reason, and when
        self.why_ms = 0  # how long its reason stays: 5 s, or until the next event after 1.5 s
        self.why_next = None  # a reason said while that one was under 1.5 s old: shown after it
        out = sim.table.outputs
        self.wrap(out)

    def wrap(self, out):
        heard = out.heard
        clock = self.sim.clock

        def listen(ev):
            self.heard.append((ev, clock.now))
            if len(self.heard) > 16:
                self.heard.pop(0)
            now = clock.now
            if self.up(now):
                age = now - self.why[1]
                if ev.get("why") and age < 1500:
                    self.why_next = ev
                elif not ev.get("why"):
                    self.why_ms = min(self.why_ms, max(age, 1500))
                else:
                    self.why, self.why_ms = (ev, now), 5000
            elif ev.get("why"):
                self.why, self.why_ms = (ev, now), 5000
            heard(ev)

        out.heard = listen

    def after_pass(self):
        sim = self.sim
        out = sim.table.outputs
        if not out.idle():
            return
        frame = bytes(sim.physical.led_chip.frame)
        if out.redraws == self.redraws:
            if frame != self.frame and self.frame is not None:
                self.blinking(self.frame, frame)
                self.frame = None  # (once a redraw)
            return
        self.redraws = out.redraws
        self.frame = frame
        COUNTS["checks"] += 1
        self.check(out)

    # --- what every game shows ----------------------------------------------------------

    def check(self, out):
        sim = self.sim
        ph = sim.physical
        for chip in [ph.led_chip, ph.buzzer_pwm] + list(ph.displays):
            if chip is not None and chip.violations:
                fail("a datasheet violation", chip.violations, [], sim)
        chain = ph.led_chip
        if chain.ma_peak > ph.leds_map["ma_cap"]:
            fail("the chain's current (mA)", chain.ma_peak, ph.leds_map["ma_cap"], sim)
        screens = [look.screen(d) for d in ph.displays]
        for line in out.show.lines:  # (16 characters of 8 px fit the 128 px glass)
            if len(line) > 16:
                fail("a line wider than the displays", line, "16 characters at most", sim)
        self.spot(chain, ph.leds_map["spot"])
        notice = self.notice()
        game = sim.game
        kind = game.about()["game"]
        getattr(self, kind)(game, chain, screens, notice)

    def up(self, now):
        """The event whose reason is up at `now` (None): one whose time is over gives way to
        the one said while it was fresh."""
        if self.why is not None and now - self.why[1] >= self.why_ms:
            nxt = self.why_next
            self.why = None if nxt is None else (nxt, self.why[1] + self.why_ms)
            self.why_ms, self.why_next = 5000, None
        return self.why

    def notice(self):
        """The words the displays must show instead of the game's: the reason of the last
        event that gave one, said less than 5 s ago and not yet followed by another event
        once 1.5 s old (with some slack at the edges: None)."""
        now = self.sim.clock.now
        while self.why is not None:
            ev, t = self.why
            age = now - t
            if age < self.why_ms - 100:
                return ev["why"]
            if age < self.why_ms + 100:
                return None  # (the edge: either)
            self.up(now)  # over: the one waiting behind it, if any
        return ""

    def spot(self, chain, spot):
        now = self.sim.clock.now
        for ev, t in reversed(self.heard):
            kind = ev["type"]
            card = kind in ("card", "enrolled")
            refused = kind == "error" and (
                "card" in ev or "uid" in ev or ev.get("what") == "card-spot"
            )
            if not (card or refused):
                continue
            if now - t < 1400 and self.sim.table.enrolment.cards.enrol_as is None:
                r, g, b = chain.rgb(spot)
                want = "green" if card else "red"
                seen = "green" if g and not r else "red" if r and not g else "%r" % ((r, g, b),)
                if seen != want:
                    fail("the card spot's light", seen, want, self.sim)
                COUNTS["spot"] += 1
            return

    def lines_shown(self, screens, notice, own):
        """Each display's lines are the reason's words while it is shown, else begin with
        the game's own lines `own` (None: a line not checked)."""
        if notice is None:
            return
        for i in range(len(screens)):
            big, lines = screens[i]
            if "?" in lines:
                fail("display %d's text (a page that is no text)" % i, lines, "text", self.sim)
            keep = len(own)
            if notice:  # the game's first line (under big digits) or two, then the reason
                said = [w[:16] for w in notice.split()]
                keep = None
                for k in range(min(len(lines), 1 if big is not None else 2), -1, -1):
                    words = " ".join(lines[k:]).split()
                    if words and words == said[: len(words)]:
                        keep = min(k, len(own))
                        break
                if keep is None:
                    fail("display %d's reason" % i, lines, notice, self.sim)
            for k in range(keep):
                if own[k] is not None and (k >= len(lines) or lines[k] != own[k]):
                    fail("display %d's lines" % i, lines, own, self.sim)
            COUNTS["displays"] += 1

    def blinking(self, a, b):
        """Two frames of one redraw, a blink apart: the LEDs that differ blink."""
        game = self.sim.game
        if game.about()["game"] != "tock" or not game.owed:
            return
        blink = set(i for i in range(len(a) // 3) if a[3 * i : 3 * i + 3] != b[3 * i : 3 * i + 3])
        want = set(self.named(game.fix))
        if blink != want:
            names = self.sim.physical.names
            fail(
                "the squares blinking",
                sorted(names[i] for i in blink),
                sorted(names[i] for i in want),
                self.sim,
            )
        COUNTS["fix"] += 1

    def named(self, fix):
        """The LEDs of the squares a fix names: square and slot names as the sensors are
        named; "put N X pawn(s) back in camp" and "X camp has N pawn(s) too many" name X's
        camp, its four slots."""
        names = self.sim.physical.names
        out = []
        for clause in fix.split(";"):
            words = clause.replace(",", " ").replace("(", " ").replace(")", " ").split()
            for w in words:
                parts = w.replace("'s", "").split("-")
                if len(parts) == 2 and parts[0] in names and parts[1] in names:
                    # a range ("GC1-GC4", "G7-G12"): every square between, by its number
                    a, b = parts
                    head = a.rstrip("0123456789")
                    if b.rstrip("0123456789") == head:
                        for n in range(int(a[len(head) :]), int(b[len(head) :]) + 1):
                            out.append(names.index(head + str(n)))
                        continue
                for part in parts:
                    if part in names:
                        out.append(names.index(part))
            text = clause.strip()
            if text.endswith("back in camp") or text.endswith("too many"):
                colour = [w for w in words if w in ("R", "G", "B", "Y")][0]
                out += [names.index("%sC%d" % (colour, k)) for k in range(1, 5)]
        return out

    # --- each game ----------------------------------------------------------------------

    def tock(self, game, chain, screens, notice):
        from games.tock.rules import ANY, CELLS, COLOURS, entry_square, home_square, square_name

        pos = game.pos
        names = self.sim.physical.names
        level = chain.rgb
        white = set(i for i in range(len(names)) if _is_white(level(i)))
        won = pos.winner()
        if won is None:
            turn = pos.colours() if pos.turn == ANY else pos.seat_colours(pos.seat_of(pos.turn))
            for c in turn:  # its home: its colour, or a pawn's hint over it
                for k in range(1, 5):
                    i = names.index(square_name(home_square(c, k)))
                    if i not in white and not _is_colour(level(i), c):
                        fail("the home of the colour to play", level(i), COLOURS[c], self.sim)
            first = "any seat: joker" if pos.turn == ANY else _NAMES[turn[0]] + " to play"
            own = [first, "card %s" % game.card if game.card else "lay a card"]
        else:
            # the winners' colours spelled out ("RED+BLUE win" for a team), their letters
            # where that is longer than a line
            cs = pos.team_colours(won) if pos.teams() else pos.seat_colours(won)
            verb = " win" if pos.teams() else " wins"
            said = "+".join(_NAMES[c] for c in cs) + verb
            own = [said if len(said) <= 16 else "+".join(COLOURS[c] for c in cs) + verb]
        self.lines_shown(screens, notice, own)
        if won is not None or game.card is None or game.owed:
            return
        moves = pos.legal_moves(game.card)
        want = set()
        loose = set()  # (T14: the ends of the lifted pawn's colour, below)
        lifted = game.lifted()
        if lifted is None:
            for m in moves:
                for c, f, _ in m.parts:
                    if f is None:
                        want.update(
                            names.index("%sC%d" % (COLOURS[c], k + 1))
                            for k in range(4)
                            if game.camp[4 * c + k]
                        )
                    else:
                        want.add(names.index(square_name(f)))
            COUNTS["pawns"] += 1
            what = "the pawns lit for %s" % game.card
        elif game.card.rank == "J" and lifted < CELLS:
            # a swap: each pawn the rules' own check lets it change places with (the list of
            # moves merges swaps that give one position: two pawns of one colour, T12)
            from games.tock.rules import Illegal

            s = lifted
            for t in range(CELLS):
                if t == s or not pos.cells[t]:
                    continue
                after = pos.copy()
                after.cells[s], after.cells[t] = pos.cells[t], pos.cells[s]
                try:
                    pos.check(game.card, after, {s, t})
                except Illegal:
                    continue
                want.add(names.index(square_name(t)))
            COUNTS["lifted"] += 1
            what = "the squares lit for the pawn lifted with %s" % game.card
        else:
            s = lifted
            for m in moves:
                if s >= 100:  # a pawn from a camp: where a part from its camp goes
                    for c, f, t in m.parts:
                        if f is None and c == (s - 100) // 4:
                            want.add(names.index(square_name(t)))
                    continue
                # the lifted pawn followed through the parts in the order they are played:
                # T14: a waiting pawn on its C16 slips into CH1 (not a part) once a part
                # frees it, and may then go on from there with a part of its own
                cur = s
                c = pos.cells[s] - 1 if pos.cells[s] else -1
                slips = c >= 0 and pos.waiting >> c & 1 and s == entry_square(c)
                ch1 = home_square(c, 1) if slips else -1
                for _, f, t in m.parts:
                    if f == cur:
                        cur = t
                    elif slips and cur == s and f == ch1:
                        cur = ch1  # freed: it slips in
                if slips and cur == s and not m.after.cells[s]:
                    cur = ch1  # (CH1 free from the start: it slipped in with the move)
                if cur != s:
                    want.add(names.index(square_name(cur)))
                if c >= 0 and pos.waiting >> c & 1:  # (see below)
                    for pc, _, t in m.parts:
                        if pc == c:
                            loose.add(names.index(square_name(t)))
                    loose.add(names.index(square_name(home_square(c, 1))))
            COUNTS["lifted"] += 1
            what = "the squares lit for the pawn lifted with %s" % game.card
        # T14 makes pawns of one colour change places unseen: the waiting pawn slips into
        # CH1 as a part frees it, and the splits that reach one board may move either
        # pawn (the independent reference, tests/bench/tock_reference.py, gives both ends
        # to both): for that colour the lit squares hold the followed ends and lie among
        # the ends of its pawns
        if loose and want <= white <= want | loose:
            return
        if white != want:
            sys.stderr.write("position %s lifted %s\n" % (json.dumps(pos.to_dict()), lifted))
            fail(what, sorted(names[i] for i in white), sorted(names[i] for i in want), self.sim)

    def weykick(self, game, chain, screens, notice):
        m = game.match
        a, b = m.score["A"], m.score["B"]
        for i, (big, _) in enumerate(screens):
            want = "%d-%d" % ((a, b) if i == 0 else (b, a))
            if big != want:
                fail("display %s's score" % "AB"[i], big, want, self.sim)
        clock = m.clock_ms
        if m.rules["kind"] == "timed":
            clock = max(0, m.length_ms() - clock)
        shown = "%d:%02d" % (clock // 60000, clock // 1000 % 60)
        self.lines_shown(screens, notice, [shown])

    def holdem(self, game, chain, screens, notice):
        from games.holdem.betting import STREETS

        h = game.hand
        own = []
        if h is not None and not game.drawing and not (h.over and h.result):
            own = [STREETS[h.street] + " pot %d" % sum(h.contrib.values())]
            # H4: no seat acts before its street's cards are out, and every card is turned
            # once the betting is over: until then the display asks for them
            laid = len(game.community)
            due = 5 if h.to_act is None else (0, 3, 4, 5)[h.street]
            if game.showing:
                pass
            elif laid < due:
                own.append("lay the " + ("flop", "flop", "flop", "turn", "river")[laid])
            elif h.to_act is not None:
                own.append("seat %s to act" % h.to_act)
        self.lines_shown(screens, notice, own)

    def pocha(self, game, chain, screens, notice):
        own = []
        if not game.drawing and game.phase in ("bidding", "playing"):
            if game.phase == "bidding":
                own = ["seat %s bids" % game.bidder]
            else:
                own = ["seat %s to play" % game.to_play]
            rows = []
            for s in game.seats:
                bid = game.bids.get(s)
                rows.append("%s/%d" % ("-" if bid is None else bid, game.taken.get(s, 0)))
            own.append(None)  # (the trump line: not checked here)
            own += [" ".join(rows[i : i + 4]) for i in range(0, len(rows), 4)]
        self.lines_shown(screens, notice, own)


def _is_white(rgb):
    r, g, b = rgb
    return r == g == b and r > 40


def _is_colour(rgb, c):
    r, g, b = rgb
    want = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0))[c]  # red green blue yellow
    return (r > 0) == bool(want[0]) and (g > 0) == bool(want[1]) and (b > 0) == bool(want[2])


def main(path, hw_dir, state_dir):
    from sim import VirtualClock
    from sim.script import read

    with open(path) as f:
        settings = read(f)
    sim = run.Sim(
        settings, path, VirtualClock(), run.Capture(), "c41f0000", hw_dir, None, state_dir
    )
    checker = [Checker(sim)]
    advance = run.Sim.advance
    boot = run.Sim.boot

    def booted(self, boot_id):
        boot(self, boot_id)
        if checker:
            checker[0] = Checker(self)

    def step_checked(self, ms):
        end = self.clock.now + ms
        while self.clock.now < end and self.table.running:
            advance(self, min(5, end - self.clock.now))
            checker[0].after_pass()

    run.Sim.advance = step_checked
    run.Sim.boot = booted
    sim.run()
    sys.stderr.write(json.dumps(COUNTS) + "\n")


main(sys.argv[1], sys.argv[2], sys.argv[3])
