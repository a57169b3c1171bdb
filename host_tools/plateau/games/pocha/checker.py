"""`plateau replay` of a Pocha match (K3, K7, K8, K10), from its events alone: each hand deals
the cards K3's schedule says, each trick goes to the card the rules say wins it (the trump
turned, the led suit), each hand's tricks taken are the tricks counted, its scores follow K8
from the bids, and the running totals add up; the match ends once its schedule is played and
first place is alone (K8's one-card hands break a tie), the final ranking the totals, highest
first. What a log cannot tell (a card laid by the wrong seat) it cannot check; the first event
that does not follow is reported with why. A match taken up mid-way (the board's snapshot of
a hand after the first) rests on the board's word for what came before: `taken_up` says so."""

from __future__ import annotations

from plateau.games import Mismatch


class PochaChecker:
    def __init__(self) -> None:
        self.trump: str | None = None
        self.table: list[tuple[str, str]] = []  # (seat, card) of the trick under way
        self.taken: dict[str, int] = {}
        self.bids: dict[str, int] = {}
        self.totals: dict[str, int] | None = None
        self.hands = self.tricks = 0
        self.ranking: list | None = None
        self.kind: str | None = None  # the schedule (K3), from the board's hello
        self.plans: list[list[int]] | None = None  # K3's schedules the hands so far fit
        self.last_hand = 0  # the number of the last hand scored
        self.taken_up: str | None = None
        self._result: list[list[str]] | None = None

    def feed(self, ev: dict) -> None:
        from plateau.fw.games.pocha.rules import card, score, winning

        self._result = None
        kind = ev.get("type")
        if kind in ("hello", "game") and isinstance(ev.get("rules"), str):
            self.kind = ev["rules"]
        elif kind == "snapshot" and self.totals is None:
            totals = ev.get("totals")
            if isinstance(totals, dict) and all(isinstance(n, int) for n in totals.values()):
                self.totals = dict(totals)
            if ev.get("hand") != 1 or any(self.totals.values() if self.totals else ()):
                self.taken_up = f"taken up at the board's snapshot of hand {ev.get('hand')}"
        if kind == "hand_start":
            self.table, self.taken, self.bids, self.trump = [], {}, {}, None
            self._dealt(ev)
        elif kind == "trump":
            self.trump = ev["suit"]
        elif kind == "bid":
            self.bids[ev["seat"]] = ev["bid"]
        elif kind == "card" and "seat" in ev:
            self.table.append((ev["seat"], ev["card"]))
        elif kind == "trick":
            if self.trump is None or not self.table:
                self.table = []
                return  # its cards or the trump were not in the log: not checkable
            cards = [card(c) for _, c in self.table]
            seat = self.table[winning(cards, self.trump)][0]
            if ev["winner"] != seat:
                plays = " ".join(f"{s}:{c}" for s, c in self.table)
                raise Mismatch(
                    f"trick {ev.get('number')} ({plays}, trumps {self.trump}) goes "
                    f"to seat {seat}, not {ev['winner']} (K7)"
                )
            self.taken[seat] = self.taken.get(seat, 0) + 1
            self.tricks += 1
            self.table = []
        elif kind == "hand_end" and "totals" in ev:
            for s, n in ev["taken"].items():
                if self.taken and self.taken.get(s, 0) != n:
                    raise Mismatch(
                        f"hand {ev.get('hand')}: seat {s} took "
                        f"{self.taken.get(s, 0)} tricks, not {n}"
                    )
                want = score(ev["bids"][s], n)
                if ev["scores"][s] != want:
                    raise Mismatch(
                        f"hand {ev.get('hand')}: seat {s} bid {ev['bids'][s]} and "
                        f"took {n}: {want} points, not {ev['scores'][s]} (K8)"
                    )
            if self.totals is not None:
                for s, t in ev["totals"].items():
                    if self.totals.get(s, 0) + ev["scores"][s] != t:
                        raise Mismatch(
                            f"hand {ev.get('hand')}: seat {s}'s total "
                            f"{self.totals.get(s, 0)} + {ev['scores'][s]} is not {t}"
                        )
            self.totals = dict(ev["totals"])
            self.hands += 1
            if isinstance(ev.get("hand"), int):
                self.last_hand = ev["hand"]
        elif kind == "match_end" and "ranking" in ev:
            totals = [r[1] for r in ev["ranking"]]
            if totals != sorted(totals, reverse=True):
                raise Mismatch("the final ranking is not highest total first (K10)")
            if self.totals is not None and any(
                self.totals.get(r[0]) != r[1] for r in ev["ranking"]
            ):
                raise Mismatch("the final ranking's totals are not the hands' totals")
            self._ended()
            self.ranking = ev["ranking"]

    def _dealt(self, ev: dict) -> None:
        """K3: a hand (not a tie-break's) deals what the schedule says; hand 1 begins a
        match (a `new` of the same game says no more)."""
        from plateau.fw.games.pocha.rules import PochaError, schedule

        hand, cards = ev.get("hand"), ev.get("cards")
        if not isinstance(hand, int) or not isinstance(cards, int) or ev.get("tiebreak"):
            return
        if hand == 1:
            if self.totals is not None:
                self.totals = {s: 0 for s in self.totals}  # a new match
            self.plans, self.taken_up, self.ranking = None, None, None
        if self.plans is None and self.kind and self.totals:
            self.plans = []
            for size in (40, 48):
                try:
                    self.plans.append(schedule(size, len(self.totals), self.kind))
                except PochaError:
                    continue  # that deck does not deal to this many (K1)
        if self.plans:
            fits = [p for p in self.plans if len(p) >= hand and p[hand - 1] == cards]
            if not fits:
                raise Mismatch(
                    f"hand {hand} deals {cards} cards, which no {self.kind} schedule for"
                    f" {len(self.totals or ())} players does (K3)"
                )
            self.plans = fits

    def _ended(self) -> None:
        """The match may end only once its schedule is played, first place alone (K8)."""
        totals = self.totals or {}
        if self.plans and not any(self.last_hand >= len(p) for p in self.plans):
            want = min(len(p) for p in self.plans)
            raise Mismatch(
                f"the match ends after hand {self.last_hand} of the {want} its schedule deals (K3)"
            )
        best = max(totals.values(), default=None)
        if best is not None and list(totals.values()).count(best) > 1:
            raise Mismatch(f"the match ends with first place shared at {best} (K8: a tie-break)")
        places: list[list[str]] = []
        for total in sorted(set(totals.values()), reverse=True):  # K10: equal totals share
            places.append(
                sorted((s for s, n in totals.items() if n == total), key=lambda s: (len(s), s))
            )
        self._result = places or None

    def result(self) -> list[list[str]] | None:
        """The places of the match the last event ended, from the totals this checker added
        up; None when it ended none."""
        return self._result

    def summary(self) -> list[str]:
        end = (
            "final ranking " + ", ".join(f"{r[0]} ({r[1]})" for r in self.ranking)
            if self.ranking
            else f"totals {self.totals}"
        )
        return [f"pocha: {self.hands} hands, {self.tricks} tricks checked; {end}"]

    def state(self) -> dict:
        return {"game": "pocha", "totals": self.totals, "ranking": self.ranking}
