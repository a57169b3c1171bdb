# Texas Hold'em betting (docs/rules/holdem.md, H1-H6, H8): one hand's blinds, rounds,
# structures, all-ins, and its end, with or without a showdown. Pure: actions in, refusals
# (with the reason, nothing changed) or the new state out.
from games.holdem.pots import build, round_from, settle

STRUCTURES = ("no-limit", "pot-limit", "fixed-limit")
STREETS = ("pre-flop", "flop", "turn", "river")
MAX_BETS = 4  # fixed-limit: one bet and at most three raises a round


class Refused(ValueError):
    """An action the rules forbid: `why` says which rule, in words; nothing was changed."""


def first_button(draws):
    """H1: each seat lays a card; the highest rank has the button. -> (seat, None), or
    (None, seats to draw again) when the highest rank is tied (suits do not break ties)."""
    best = max(r for r, _ in draws.values())
    top = sorted(s for s in draws if draws[s][0] == best)
    return (top[0], None) if len(top) == 1 else (None, top)


def next_button(seats, stacks, button):
    """H1: the button moves one seat left, skipping seats with no chips."""
    i = seats.index(button)
    for k in range(1, len(seats) + 1):
        s = seats[(i + k) % len(seats)]
        if stacks[s] > 0:
            return s
    raise Refused("no seat has chips")


class Hand:
    def __init__(
        self, seats, stacks, button, structure="no-limit", small_blind=1, big_blind=2, big_bet=None
    ):
        if structure not in STRUCTURES:
            raise Refused("structure must be one of: " + ", ".join(STRUCTURES))
        self.seats = [s for s in seats if stacks[s] > 0]  # H1: a seat with no chips is out
        if len(self.seats) < 2:
            raise Refused("a hand needs two seats with chips")
        if button not in self.seats:
            raise Refused("the button must be a seat with chips")
        self.structure = structure
        self.sb = small_blind
        self.bb = big_blind
        self.big_bet = big_bet if big_bet is not None else 2 * big_blind  # fixed-limit turn/river
        self.button = button
        self.stack = dict((s, stacks[s]) for s in self.seats)
        self.contrib = dict((s, 0) for s in self.seats)  # chips in this hand
        self.folded = []
        self.street = 0
        self.over = False
        self.log = []  # every action, in order (H9)
        self._blinds()

    # --- saved with the game (a reset mid-hand resumes the hand) -------------------------

    FIELDS = (
        "seats",
        "structure",
        "sb",
        "bb",
        "big_bet",
        "button",
        "stack",
        "contrib",
        "folded",
        "street",
        "over",
        "bet",
        "acted",
        "current",
        "min_raise",
        "bets",
        "to_act",
    )

    def to_dict(self):
        d = dict((k, getattr(self, k)) for k in Hand.FIELDS)
        if self.over:
            d["result"] = self.result
        return d

    @classmethod
    def from_dict(cls, d):
        """The hand to_dict() saved; ValueError (Refused) if it does not hold together."""
        h = object.__new__(cls)
        for k in Hand.FIELDS:
            setattr(h, k, d[k])
        h.log = []
        if h.over:
            h.result = [(p[0], p[1], p[2], p[3]) for p in d["result"]]
        seats = h.seats
        if not isinstance(seats, list) or len(seats) < 2:
            raise Refused("saved hand: seats")
        for name in ("stack", "contrib", "bet"):
            m = getattr(h, name)
            if not isinstance(m, dict) or sorted(m) != sorted(seats):
                raise Refused("saved hand: " + name)
        if h.to_act is not None and h.to_act not in seats or h.button not in seats:
            raise Refused("saved hand: turn")
        return h

    # --- seats ----------------------------------------------------------------------------

    def _left_of(self, seat):
        i = self.seats.index(seat)
        return self.seats[(i + 1) % len(self.seats)]

    def live(self):
        """Seats still in the hand, from the left of the button."""
        return [s for s in round_from(self.seats, self.button) if s not in self.folded]

    def able(self):
        """Seats still in that have chips left to bet."""
        return [s for s in self.live() if self.stack[s] > 0]

    # --- blinds (H2) ---------------------------------------------------------------------

    def _blinds(self):
        if len(self.seats) == 2:  # heads-up: the button posts the small blind, acts first
            small, big = self.button, self._left_of(self.button)
        else:
            small = self._left_of(self.button)
            big = self._left_of(small)
        self._new_round()
        self._put(small, min(self.sb, self.stack[small]))
        self._put(big, min(self.bb, self.stack[big]))
        self.log.append(("blinds", small, self.bet[small], big, self.bet[big]))
        # The others call the full big blind even if it is short, unless at most one seat
        # has chips left: nobody could call it (H2), the call is only what was posted.
        self.current = self.bb if len(self.able()) > 1 else max(self.bet.values())
        self.min_raise = self.bb  # the big blind counts as the opening bet
        self.bets = 1
        self.to_act = self._left_of(big)
        self._skip_to_able()
        if self.to_act is None:  # nobody has a choice to make: the cards are turned (H4)
            self._close_round()

    def _new_round(self):
        self.bet = dict((s, 0) for s in self.seats)  # chips in front of each seat this round
        self.acted = {}  # seat -> the bet it faced when it last acted
        self.current = 0
        self.min_raise = self.step() if self.structure == "fixed-limit" else self.bb
        self.bets = 0

    def step(self):
        """fixed-limit: this round's bets and raises (H3)."""
        return self.bb if self.street < 2 else self.big_bet

    def _put(self, seat, chips):
        self.stack[seat] -= chips
        self.bet[seat] += chips
        self.contrib[seat] += chips

    # --- actions (H3, H4, H6, H8) ----------------------------------------------------------

    def act(self, seat, action, amount=0):
        """action: fold, check, call, bet, raise (amount = the total bet to make this round),
        allin. Raises Refused with the reason and changes nothing when the rules forbid it."""
        if self.over:
            raise Refused("the hand is over")
        if action == "fold" and seat != self.to_act and self._may_fold_now(seat):
            self.folded.append(seat)  # H4: a seat may fold at any time (a showdown too)
            self.log.append((STREETS[self.street], seat, action, self.bet[seat]))
            if len(self.live()) == 1:
                self._finish(None)  # H5: every chip to the last seat in
            return
        if seat != self.to_act:
            if self.to_act is None:
                raise Refused("nobody is to act: the betting is over; a seat may only fold (H4)")
            raise Refused("it is seat %s's turn, not seat %s's (H8)" % (self.to_act, seat))
        owe = self.current - self.bet[seat]
        if action == "fold":
            self.folded.append(seat)
        elif action == "check":
            if owe > 0:
                raise Refused("cannot check: %d to call (H4)" % owe)
        elif action == "call":
            if owe <= 0:
                raise Refused("nothing to call: check or bet (H4)")
            self._put(seat, min(owe, self.stack[seat]))  # short: all in (H6)
        elif action in ("bet", "raise"):
            self._raise(seat, amount)
        elif action == "allin":
            total = self.bet[seat] + self.stack[seat]
            if total <= self.current:
                self._put(seat, self.stack[seat])  # a call for what it has
            else:
                self._raise(seat, total)
            action = "allin"
        else:
            raise Refused("unknown action %r: fold, check, call, bet, raise, allin" % action)
        self.acted[seat] = self.current if action != "fold" else None
        self.log.append((STREETS[self.street], seat, action, self.bet[seat]))
        self._next()

    def _may_fold_now(self, seat):
        """H4: folding is allowed at any time. Out of turn, it is taken from a seat still in
        that has no choice left in the betting (all in, or the betting over: at the showdown
        a seat may give up its hand rather than show it); a seat still to bet folds in turn,
        so the betting order stays the one every player follows (H8)."""
        if seat not in self.live():
            return False
        return self.to_act is None or self.stack[seat] == 0

    def raise_refused(self, seat):
        """Why the seat may not bet or raise now (whatever the amount), or None."""
        others = [s for s in self.live() if s != seat and self.stack[s] > 0]
        if not others:
            return "every other seat still in is all in: call or fold (H4)"
        if seat in self.acted and self.current - self.acted[seat] < self.min_raise:
            return "no full raise since seat %s acted: it may call or fold (H4)" % seat
        return None

    def _raise(self, seat, to):
        if not isinstance(to, int) or to <= self.current:
            raise Refused("a bet or raise must go above %d (H4)" % self.current)
        if to - self.bet[seat] > self.stack[seat]:
            raise Refused(
                "seat %s has %d: it cannot put in %d (H8)"
                % (seat, self.stack[seat], to - self.bet[seat])
            )
        why = self.raise_refused(seat)
        if why:
            raise Refused(why)
        all_in = to - self.bet[seat] == self.stack[seat]
        size = to - self.current
        if self.structure == "fixed-limit":
            step = self.step()
            if self.bets >= MAX_BETS:
                raise Refused("one bet and three raises a round: it is capped (H3)")
            if size != step and not (all_in and size < step):
                raise Refused("fixed limit: this round's bets and raises are of %d (H3)" % step)
        elif size < self.min_raise and not all_in:
            raise Refused(
                "the least this raise can be is to %d (H4)" % (self.current + self.min_raise)
            )
        if self.structure == "pot-limit":
            pot = sum(self.contrib.values()) + (self.current - self.bet[seat])
            if to > self.current + pot:
                raise Refused("pot limit: at most to %d (H3)" % (self.current + pot))
        self._put(seat, to - self.bet[seat])
        if size >= self.min_raise:  # a full raise: it sets the minimum, reopens, and counts
            self.min_raise = size  # towards fixed-limit's cap (a short all-in does not)
            self.bets += 1
        self.current = to

    # --- turns and rounds ---------------------------------------------------------------

    def _skip_to_able(self):
        for _ in range(len(self.seats)):
            s = self.to_act
            if self._waiting(s):
                return
            self.to_act = self._left_of(s)
        self.to_act = None

    def _waiting(self, seat):
        """The seat still has a choice to make this round: it is in, has chips, has not
        acted on the bet it faces, and owes something or could still raise (with every
        other seat still in all in, a seat that owes nothing has nothing to do: H4)."""
        if seat in self.folded or self.stack[seat] == 0:
            return False
        if seat in self.acted and self.acted[seat] is not None:
            if self.bet[seat] == self.current:
                return False
        if self.bet[seat] >= self.current:
            for s in self.live():
                if s != seat and self.stack[s] > 0:
                    return True
            return False
        return True

    def _next(self):
        live = self.live()
        if len(live) == 1:  # H5: everyone else folded
            self._end_round()
            self._finish(None)
            return
        for s in live:
            if self._waiting(s):
                self.to_act = self._left_of(self.to_act)
                self._skip_to_able()
                return
        self._close_round()

    def _close_round(self):
        """The round is over: uncalled chips back, then the next round, or the showdown."""
        self._end_round()
        if self.street == 3:
            self.to_act = None  # showdown: the hole cards decide
            return
        self.street += 1
        self._new_round()
        if len(self.able()) <= 1:  # H4: nobody left to bet against: the cards are turned
            self.street = 3
            self.to_act = None
            return
        self.to_act = self.able()[0]  # first seat still in left of the button

    def _end_round(self):
        """H6: chips no other seat called go back to the bettor (unless it folded since, all
        in: its chips stay in as dead money)."""
        ordered = sorted(self.seats, key=lambda s: self.bet[s], reverse=True)
        top, second = ordered[0], ordered[1]
        extra = self.bet[top] - self.bet[second]
        if extra > 0 and top not in self.folded:
            self.stack[top] += extra
            self.bet[top] -= extra
            self.contrib[top] -= extra
            self.log.append(("returned", top, extra))

    def showdown_due(self):
        return not self.over and self.to_act is None

    def pots(self):
        return build(self.contrib, self.folded)

    def _finish(self, result):
        self.over = True
        if result is None:  # one seat left: it takes every chip without showing (H5)
            (winner,) = self.live()
            won = sum(self.contrib.values())
            self.stack[winner] += won
            self.result = [(won, [winner], [winner], {winner: won})]  # H9: its share, all
            return
        self.result = result

    def showdown(self, hole, community):
        """H7: hole: seat -> two (rank, suit) cards of every seat still in; community: five.
        Returns the pots settled; the stacks are paid."""
        if not self.showdown_due():
            raise Refused("no showdown now: the betting is not over")
        if len(community) != 5:
            raise Refused("a showdown needs the five community cards")
        missing = [s for s in self.live() if s not in hole]
        if missing:
            raise Refused("seats %s have not shown their cards" % " ".join(missing))
        settled, values = settle(
            self.pots(), dict((s, hole[s]) for s in self.live()), community, self.live()
        )
        for _, _, _, shares in settled:
            for s in shares:
                self.stack[s] += shares[s]
        self._finish(settled)
        return settled, values
