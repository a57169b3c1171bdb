# Texas Hold'em at the table: cards from the reader, bets from the host, events out (H8, H9).
#
# The dealer lays each community card on the reader as it is turned (three for the flop once
# the pre-flop betting is over, then one, then one); at showdown each seat still in lays its
# two hole cards, in the order the table asks. Bets come as host commands
# (`bet 3 40`, `call 2`, `fold 4`, ...). What the rules forbid is refused with the reason and
# changes nothing.
from games.cards import CardGame
from games.holdem.betting import STREETS, Hand, Refused, first_button, next_button
from games.holdem.hands import HandError, card, describe, name

ACTIONS = ("fold", "check", "call", "bet", "raise", "allin")


class HoldemGame(CardGame):
    def __init__(self, emit, names, settings):
        super().__init__(emit)
        self._setup(settings)

    def _setup(self, settings):
        """A new game by its settings (checked in full: games/settings.py, holdem/settings.py:
        SettingsError, a ValueError, says what is wrong)."""
        from games.settings import check

        s = check("holdem", settings)
        self.unsaved = False
        self.resumed = False
        self.settings = s
        self.seats = [str(i + 1) for i in range(s["seats"])]
        small, big = s["blinds"].split("/")
        self.sb, self.bb = int(small), int(big)
        self.structure = s["structure"]
        self.big_bet = s.get("big-bet", 2 * self.bb)
        stacks = s["stacks"]  # one for every seat, or seat by seat
        if not isinstance(stacks, list):
            stacks = [stacks] * len(self.seats)
        self.stacks = dict((seat, stacks[i]) for i, seat in enumerate(self.seats))
        self.button = s["button"]
        self.hand = None  # type: Hand | None
        self.community = []  # the cards laid face up for every seat (the "board" on the wire)
        self.hole = {}
        self.seen = []  # cards read this hand (H8: never twice)
        self.showing = None  # the seat whose hole cards are being laid
        self.drawing = None  # type: list | None  # H1: seats still to lay a card, in order
        self.draws = {}
        self.drawn = []  # every card of the draw, ties' rounds included: on the reader

    # --- what the table asks of a game ------------------------------------------------

    def about(self):
        return {"game": "holdem", "rules": self.structure, "players": len(self.seats)}

    def snapshot(self):
        h = self.hand
        snap = {
            "game": "holdem",
            "stacks": self.stacks if h is None else h.stack,
            "button": self.button,
            "board": [name(c) for c in self.community],
        }
        if h is not None:
            snap.update(
                {
                    "street": STREETS[h.street],
                    "to_act": h.to_act,
                    "pots": h.pots(),
                    "bets": h.bet,
                    "folded": h.folded,
                }
            )
        return snap

    def state(self):
        """The whole table: stacks and button, and the hand under way (betting, board, hole
        cards shown, the draw for the button), so a reset mid-hand resumes it."""
        return {
            "game": "holdem",
            "settings": self.settings,
            "stacks": self.stacks,
            "button": self.button,
            "hand": self.hand.to_dict() if self.hand else None,
            "board": [name(c) for c in self.community],
            "hole": dict((s, [name(c) for c in self.hole[s]]) for s in self.hole),
            "seen": [name(c) for c in self.seen],
            "showing": self.showing,
            "drawing": self.drawing,
            "draws": dict((s, name(c)) for s, c in self.draws.items()),
            "drawn": [name(c) for c in self.drawn],
            "spot": self.spot or "",
        }

    def restore(self, state):
        self._setup(state["settings"])
        self.stacks = dict(state["stacks"])
        if sorted(self.stacks) != sorted(self.seats) or state["button"] not in self.seats:
            raise ValueError("saved stacks or button do not fit the seats")
        self.button = state["button"]
        if state.get("hand"):
            self.hand = Hand.from_dict(state["hand"])
        self.community = [card(c) for c in state.get("board", [])]
        hole = state.get("hole", {})
        self.hole = dict((s, [card(c) for c in hole[s]]) for s in hole)
        self.seen = [card(c) for c in state.get("seen", [])]
        self.showing = state.get("showing")
        self.drawing = state.get("drawing")
        draws = state.get("draws", {})
        self.draws = dict((s, card(draws[s])) for s in draws)
        self.drawn = [card(c) for c in state.get("drawn", [])]
        self.restored(state)

    # --- cards from the reader (H8) ---------------------------------------------------

    def _gathered(self):
        """The cards are gathered for a new deal (hand, draw): none read in it yet."""
        self.seen, self.draws, self.drawn = [], {}, []

    def on_card(self, text, uid, now, pile=False):
        """A card read; True when it was refused (it may be laid again at once)."""
        if self.from_pile(text, uid, pile):
            return False  # read before the power went, lying on the spot still
        if text is None:
            self.unknown_tag(uid)
            return False
        why = self._card(text)
        if why:
            if self.refuse(text):
                self.emit({"type": "error", "what": "card", "card": text, "why": why})
            return True
        self.count()
        return False

    def _card(self, text):
        if self.drawing:
            return self._draw(text)
        h = self.hand
        if h is None or h.over:
            return "no hand is being played: start one with `hand`"
        try:
            c = card(text)
        except HandError as e:
            return str(e)
        if c in self.seen:
            return "%s was already read this hand (H8)" % text
        if self.showing is not None:
            self.hole.setdefault(self.showing, []).append(c)
            self.seen.append(c)
            self.emit({"type": "card", "card": text, "seat": self.showing, "hole": True})
            if len(self.hole[self.showing]) == 2:
                self._next_to_show()
            return None
        due = self._board_due()
        if due <= len(self.community):
            if len(self.community) >= 5:
                return "the board already has five cards (H8)"
            return "no community card now: the %s betting is not over" % STREETS[h.street]
        self.community.append(c)
        self.seen.append(c)
        self.emit({"type": "card", "card": text, "board": [name(b) for b in self.community]})
        if len(self.community) == due:
            self._after_board()
        return None

    def _draw(self, text):
        """H1: each seat lays a card in turn; the highest rank has the button; a tie on the
        highest rank draws again among the tied seats."""
        try:
            c = card(text)
        except HandError as e:
            return str(e)
        if c in self.drawn:
            return "%s was already drawn" % text
        drawing = self.drawing
        assert drawing is not None
        seat = drawing.pop(0)
        self.draws[seat] = c
        self.drawn.append(c)
        self.emit({"type": "card", "card": text, "seat": seat, "draw": True})
        if drawing:
            return None
        button, tied = first_button(self.draws)
        if tied:  # the tied seats lay again, on the cards of this round
            self.drawing, self.draws = list(tied), {}
            self.emit(
                {
                    "type": "draw",
                    "seats": tied,
                    "why": "tied on the highest rank: these seats draw again",
                }
            )
            return None
        self.drawing = None
        self.button = button
        self.emit({"type": "button", "seat": button})
        return None

    def _board_due(self):
        """How many community cards the betting so far has turned."""
        h = self.hand
        assert h is not None
        if h.to_act is None:
            return 5  # all in or showdown: the rest are turned with no betting
        return (0, 3, 4, 5)[h.street]

    def _after_board(self):
        h = self.hand
        assert h is not None
        if h.showdown_due() and len(self.community) == 5:
            self._ask_hole_cards()
        elif h.to_act is not None:
            self.emit({"type": "street", "street": STREETS[h.street], "to_act": h.to_act})

    def _ask_hole_cards(self):
        self.showing = None
        self._next_to_show()

    def _next_to_show(self):
        assert self.hand is not None
        for s in self.hand.live():
            if len(self.hole.get(s, ())) < 2:
                self.showing = s
                self.emit({"type": "show", "seat": s, "why": "lay your two cards on the reader"})
                return
        self.showing = None
        self._showdown()

    def _showdown(self):
        h = self.hand
        assert h is not None
        settled, values = h.showdown(self.hole, self.community)
        for s in h.live():
            v, best = values[s]
            self.emit(
                {
                    "type": "hand",
                    "seat": s,
                    "category": describe(v),
                    "best": [name(c) for c in best],
                }
            )
        self._pay(settled)

    def _pay(self, settled):
        h = self.hand
        assert h is not None
        for amount, eligible, winners, shares in settled:
            self.emit(
                {
                    "type": "pot",
                    "amount": amount,
                    "eligible": eligible,
                    "winners": winners,
                    "shares": shares,
                }
            )
        self.stacks = dict((s, self.stacks[s]) for s in self.stacks)
        self.stacks.update(h.stack)
        self.emit({"type": "hand_end", "stacks": self.stacks})
        self.unsaved = True

    # --- host commands ---------------------------------------------------------------------

    def command(self, cmd):
        name_ = cmd["cmd"]
        if name_ == "hand":
            return self._new_hand()
        if name_ == "draw":
            if self.hand is not None and not self.hand.over:
                return "the hand is not over"
            self._gathered()
            self.drawing = [s for s in self.seats if self.stacks[s] > 0]
            self.emit(
                {
                    "type": "draw",
                    "seats": list(self.drawing),
                    "why": "each seat lays one card, in this order: high card deals",
                }
            )
            return None
        if name_ in ACTIONS:
            return self._action(name_, cmd)
        if name_ == "blinds":
            return self._blinds(cmd["blinds"])
        if name_ == "new":  # settings checked in full already (table.Table.command)
            try:
                self._setup(cmd.get("settings") or self.settings)
            except ValueError as e:
                return str(e)
            self.emit({"type": "game", "game": "holdem", "stacks": self.stacks})
            return None
        return "unknown command %r for holdem" % name_

    def _blinds(self, blinds):
        """`blinds 2/4`: the next hand's blinds (a club's blind clock), between hands; the
        stacks and the button stay, where `new holdem blinds=2/4` starts a new game."""
        if self.hand is not None and not self.hand.over:
            return "the blinds change between hands: this hand is not over"
        from games.settings import check

        s = dict(self.settings)
        s["blinds"] = blinds
        try:
            s = check("holdem", s)  # H2: the big blind twice the small
        except ValueError as e:
            return str(e)
        self.settings = s
        small, big = blinds.split("/")
        self.sb, self.bb = int(small), int(big)
        self.big_bet = s.get("big-bet", 2 * self.bb)
        self.emit({"type": "blinds", "blinds": blinds, "big_bet": self.big_bet})
        return None

    def _new_hand(self):
        if self.hand is not None and not self.hand.over:
            return "the hand is not over"
        if self.drawing:
            return "the draw for the button is not finished"
        if self.hand is not None:
            try:
                self.button = next_button(self.seats, self.stacks, self.button)
            except Refused as e:
                return str(e)
        try:
            self.hand = Hand(
                self.seats, self.stacks, self.button, self.structure, self.sb, self.bb, self.big_bet
            )
        except Refused as e:
            return str(e)
        self._gathered()
        self.community, self.hole, self.showing = [], {}, None
        blinds = self.hand.log[0]
        put = self.hand.contrib  # a big blind nobody could call is back in its stack (H6):
        self.emit(  # the blinds are what each has in the pot, so stacks + blinds = chips
            {
                "type": "hand_start",
                "button": self.button,
                "blinds": {blinds[1]: put[blinds[1]], blinds[3]: put[blinds[3]]},
                "stacks": dict(self.hand.stack),
                "to_act": self.hand.to_act,
            }
        )
        return None

    def _action(self, action, cmd):
        h = self.hand
        if h is None or h.over:
            return "no hand is being played: start one with `hand`"
        seat = str(cmd.get("seat", ""))
        amount = cmd.get("amount", 0)
        if action in ("bet", "raise") and not isinstance(amount, int):
            return "%s needs an amount: the total bet to make this round" % action
        street, betting = STREETS[h.street], h.to_act is not None  # before the action
        due = self._board_due()
        if betting and len(self.community) < due and action != "fold":
            # H4: a street's round is played once its cards are turned (a fold may come at
            # any time); an action here would be a bet on cards nobody has seen
            return "the %s is not out: %d of %d community cards laid; lay them first (H4)" % (
                street,
                len(self.community),
                due,
            )
        try:
            h.act(seat, action, amount)
        except Refused as e:
            return str(e)
        self.emit(
            {
                "type": "action",
                "seat": seat,
                "action": action,
                "bet": h.bet.get(seat),
                "stack": h.stack[seat],
                "to_act": h.to_act,
                "street": street,  # the street it was taken on (the round may have closed)
            }
        )
        if h.over:  # everyone else folded (H5)
            self.showing = None
            self._pay(h.result)
        elif betting and h.to_act is None and len(self.community) == 5:
            self._ask_hole_cards()
        elif self.showing == seat:  # it gave up its hand while showing it (H4): the next
            self.hole.pop(seat, None)  # seat still in shows (its cards stay read: H8)
            self._next_to_show()
        return None
