# Pocha at the table (K2-K10): every card laid on the reader is played by the seat in turn;
# bids come from the host (`bid 2 1`). Live: cards out of turn (nothing to tell them apart:
# the table takes each card for the seat in turn), cards played twice, cards of another deck,
# bids out of range or that the dealer may not make (refused), a suit played after the seat
# showed void in it (flagged at once). After each hand every play is checked against K6.
from games.cards import CardGame
from games.pocha.rules import (
    PochaError,
    bid_refused,
    card,
    check_hand,
    deck,
    first_dealer,
    name,
    ranking,
    schedule,
    score,
    winning,
)

PREFIX = "es:"  # Spanish cards in the tag registry (hardware/tags.json): es:12B


def _card(saved):
    """A card as saved ([rank, suit]) back to (rank, suit); ValueError if it is not one."""
    return card(name((saved[0], saved[1])))


class PochaGame(CardGame):
    def __init__(self, emit, names, settings):
        super().__init__(emit)
        self._setup(settings)

    def _setup(self, settings):
        """A new game by its settings (checked in full: games/settings.py, pocha/settings.py:
        SettingsError, a ValueError, says what is wrong). Its first hand_start is said at
        the next step, once the table is up."""
        from games.settings import check

        s = check("pocha", settings)
        self.unsaved = True
        self.resumed = False
        self.settings = s
        self.seats = [str(i + 1) for i in range(s["players"])]
        self.size = s["deck"]
        self.cards = deck(self.size, s["players"])
        self.plan = schedule(self.size, s["players"], s["schedule"])
        self.dealer = s["dealer"]
        self.totals = dict((seat, 0) for seat in self.seats)
        self.hand_no = 0
        self.tiebreak = False
        self.drawing = None  # type: list | None  # K2: seats still to lay a card, in order
        self.draws = {}  # type: dict  # seat -> its card in this round of the draw
        self.drawn = []  # type: list  # every card of the draw, ties' rounds included
        self._deal()
        self.announce = True

    # --- the hand ----------------------------------------------------------------------

    def _after(self, seat):
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def _start_hand(self):
        self._deal()
        self._announce()

    def _deal(self):
        self.n = self.plan[self.hand_no] if not self.tiebreak else 1  # K8: tie-breaks of 1
        self.full = self.n * len(self.seats) == len(self.cards)
        self.phase = "trump"
        self.trump = None
        self.turned = None
        self.bids = {}
        self.bidder = self._after(self.dealer)
        self.played = dict((s, []) for s in self.seats)  # type: dict[str, list]
        self.tricks = []  # (leader, [(seat, card)])
        self.table = []
        self.leader = self._after(self.dealer)
        self.to_play = self.leader
        self.taken = dict((s, 0) for s in self.seats)
        self.void = dict((s, []) for s in self.seats)  # type: dict[str, list]

    def _announce(self):
        self.announce = False
        self.emit(
            {
                "type": "hand_start",
                "hand": self.hand_no + 1,
                "cards": self.n,
                "dealer": self.dealer,
                "tiebreak": self.tiebreak,
                "why": "the dealer lays the turned card on the reader",
            }
        )

    # --- what the table asks of a game ----------------------------------------------------

    def about(self):
        return {
            "game": "pocha",
            "rules": self.settings.get("schedule", "default"),
            "players": len(self.seats),
        }

    def snapshot(self):
        return {
            "game": "pocha",
            "hand": self.hand_no + 1,
            "cards": self.n,
            "phase": self.phase,
            "trump": self.trump,
            "bids": self.bids,
            "taken": self.taken,
            "totals": self.totals,
            "dealer": self.dealer,
        }

    def state(self):
        """The whole game, the hand under way included (a reset resumes it where it was:
        its phase, bids, tricks, the cards each seat played, a tie-break, a game over, the
        draw for the first dealer)."""
        return {
            "drawing": self.drawing,
            "draws": dict((s, list(c)) for s, c in self.draws.items()),
            "drawn": self.drawn,
            "game": "pocha",
            "settings": self.settings,
            "totals": self.totals,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "tiebreak": self.tiebreak,
            "announce": self.announce,
            "phase": self.phase,
            "turned": self.turned,
            "bids": self.bids,
            "bidder": self.bidder,
            "played": self.played,
            "tricks": self.tricks,
            "table": self.table,
            "leader": self.leader,
            "to_play": self.to_play,
            "taken": self.taken,
            "void": self.void,
            "spot": self.spot or "",
        }

    def restore(self, state):
        self._setup(state["settings"])
        seats = self.seats
        totals = state["totals"]
        if sorted(totals) != sorted(seats) or state["dealer"] not in seats:
            raise ValueError("saved totals or dealer do not fit the seats")
        self.totals = dict(totals)
        self.hand_no = state["hand_no"]
        self.tiebreak = bool(state.get("tiebreak"))
        self.dealer = state["dealer"]
        self._deal()
        if "phase" not in state:  # saved between hands by an older firmware: deal again
            self.announce = True
            self.restored(state)
            return
        self.announce = bool(state.get("announce"))
        self.phase = state["phase"]
        if self.phase not in ("trump", "bidding", "playing", "over"):
            raise ValueError("saved phase %r" % (self.phase,))
        self.turned = _card(state["turned"]) if state["turned"] else None
        self.trump = self.turned[1] if self.turned else None
        self.bids = dict(state["bids"])
        self.bidder = state["bidder"]
        self.played = dict((s, [_card(c) for c in state["played"][s]]) for s in seats)
        self.tricks = [(t[0], [(p[0], _card(p[1])) for p in t[1]]) for t in state["tricks"]]
        self.table = [(p[0], _card(p[1])) for p in state["table"]]
        self.leader = state["leader"]
        self.to_play = state["to_play"]
        self.taken = dict(state["taken"])
        self.void = dict((s, list(state["void"][s])) for s in seats)
        drawing = state.get("drawing")
        if drawing is not None and not all(s in seats for s in drawing):
            raise ValueError("saved draw does not fit the seats")
        self.drawing = drawing
        draws = state.get("draws", {})
        self.draws = dict((s, _card(draws[s])) for s in draws if s in seats)
        self.drawn = [_card(c) for c in state.get("drawn", [])]
        if self.bidder not in seats or self.leader not in seats or self.to_play not in seats:
            raise ValueError("saved turn does not fit the seats")
        self.restored(state)

    def step(self, now, settled=True):
        super().step(now, settled)
        if self.announce:
            self._announce()

    # --- cards from the reader ----------------------------------------------------------

    def on_card(self, text, uid, now, pile=False):
        """A card read; True when it was refused (it may be laid again at once)."""
        if self.from_pile(text, uid, pile):
            return False  # read before the power went, lying on the spot still
        why = self._card(text)
        if why:
            if text is None or self.refuse(text):
                self.emit({"type": "error", "what": "card", "card": text, "uid": uid, "why": why})
            return text is not None
        self.count()
        return False

    def _card(self, text):
        if text is None or not text.startswith(PREFIX):
            return "not a card of the Spanish deck (K9)"
        try:
            c = card(text[len(PREFIX) :])
        except PochaError as e:
            return str(e)
        if c not in self.cards:
            return "%s is not in this %d-card deck (K9)" % (name(c), len(self.cards))
        if self.phase == "over":
            return "the game is over"
        if self.drawing:
            return self._draw(c)
        if self.phase == "trump":
            self.turned = c
            self.trump = c[1]
            self.phase = "bidding"
            self.emit({"type": "trump", "card": name(c), "suit": self.trump, "bidder": self.bidder})
            return None
        if self.phase == "bidding":
            return "seat %s bids first (K5)" % self.bidder
        return self._play(c)

    def _draw(self, c):
        """K2: each seat lays a card in turn; the highest deals first; a tie on the highest
        rank draws again among the tied seats (on the cards of this round)."""
        if c in self.drawn:
            return "%s was already drawn" % name(c)
        drawing = self.drawing
        assert drawing is not None
        seat = drawing.pop(0)
        self.draws[seat] = c
        self.drawn.append(c)
        self.emit({"type": "card", "card": name(c), "seat": seat, "draw": True})
        if drawing:
            return None
        dealer, tied = first_dealer(self.draws, self.seats)
        if tied:
            self.drawing, self.draws = tied, {}
            self.emit(
                {
                    "type": "draw",
                    "seats": list(tied),
                    "why": "tied on the highest card: these seats draw again (K2)",
                }
            )
            return None
        self.drawing, self.draws, self.drawn = None, {}, []  # gathered for the deal
        self.dealer = dealer
        self.settings["dealer"] = dealer
        self.emit({"type": "dealer", "seat": dealer})
        self._deal()
        self._announce()
        return None

    def _play(self, c):
        seat = self.to_play
        if any(c in p for p in self.played.values()) or c in self.table_cards():
            return "%s was already played in this hand (K9)" % name(c)
        if c == self.turned and not (self.full and seat == self.dealer):
            return "%s is the turned card: nobody holds it (K4)" % name(c)
        led = self.table[0][1][1] if self.table else None
        if c[1] in self.void[seat]:  # it showed it had none of this suit earlier
            self.emit(
                {
                    "type": "illegal",
                    "what": "renege",
                    "seat": seat,
                    "card": name(c),
                    "why": "seat %s showed void in this suit earlier in the hand (K9)" % seat,
                }
            )
        if led is not None and c[1] != led and led not in self.void[seat]:
            self.void[seat].append(led)
        self.table.append((seat, c))
        self.played[seat].append(c)
        self.emit({"type": "card", "card": name(c), "seat": seat})
        if len(self.table) < len(self.seats):
            self.to_play = self._after(seat)
            return None
        cards = [x for _, x in self.table]
        winner = self.table[winning(cards, self.trump)][0]
        self.taken[winner] += 1
        self.tricks.append((self.leader, list(self.table)))
        self.emit(
            {
                "type": "trick",
                "number": len(self.tricks),
                "cards": [name(x) for x in cards],
                "winner": winner,
            }
        )
        self.table = []
        self.leader = self.to_play = winner
        if len(self.tricks) == self.n:
            self._end_hand()
        return None

    def table_cards(self):
        return [x for _, x in self.table]

    def _end_hand(self):
        for n, seat, c, ok in check_hand(self.played, self.tricks, self.trump):
            self.emit(
                {
                    "type": "illegal",
                    "what": "K6",
                    "trick": n,
                    "seat": seat,
                    "card": name(c),
                    "legal": [name(x) for x in ok],
                    "why": "seat %s played %s; K6 allowed only %s"
                    % (seat, name(c), " ".join(name(x) for x in ok)),
                }
            )
        scores = dict((s, score(self.bids[s], self.taken[s])) for s in self.seats)
        for s in self.seats:
            self.totals[s] += scores[s]
        self.emit(
            {
                "type": "hand_end",
                "hand": self.hand_no + 1,
                "bids": self.bids,
                "taken": self.taken,
                "scores": scores,
                "totals": dict(self.totals),
            }
        )
        self.unsaved = True
        last = self.hand_no + 1 >= len(self.plan)
        if last:
            best = max(self.totals.values())
            if list(self.totals.values()).count(best) > 1:
                self.tiebreak = True  # K8: one-card hands until first place is alone
            else:
                self.phase = "over"
                self.emit({"type": "match_end", "ranking": ranking(self.seats, self.totals)})
                return
        self.hand_no += 1  # a tie-break hand is a hand too: it has its own number
        self.dealer = self._after(self.dealer)
        self._start_hand()

    # --- bids from the host (K5) ------------------------------------------------------

    def command(self, cmd):
        if cmd["cmd"] == "new":  # settings checked in full already (table.Table.command)
            try:
                self._setup(cmd.get("settings") or self.settings)
            except ValueError as e:
                return str(e)
            return None
        if cmd["cmd"] == "draw":
            if self.hand_no or self.phase != "trump" or self.turned or self.tiebreak:
                return "the first dealer is drawn before the first hand is dealt (K2)"
            self.drawing, self.draws = list(self.seats), {}
            self.emit(
                {
                    "type": "draw",
                    "seats": list(self.seats),
                    "why": "each seat lays one card, in this order: the highest deals (K2)",
                }
            )
            return None
        if cmd["cmd"] != "bid":
            return "unknown command %r for pocha" % cmd["cmd"]
        if self.phase != "bidding":
            return "no bidding now (%s)" % self.phase
        seat = str(cmd.get("seat"))
        if seat != self.bidder:
            return "seat %s bids now, not seat %s (K5)" % (self.bidder, seat)
        bid = cmd.get("amount")
        why = bid_refused(bid, self.n, list(self.bids.values()), seat == self.dealer)
        if why:
            return why
        self.bids[seat] = bid
        self.emit({"type": "bid", "seat": seat, "bid": bid})
        if seat == self.dealer:
            self.phase = "playing"
            self.emit({"type": "play", "leader": self.leader})
        else:
            self.bidder = self._after(seat)
        return None
