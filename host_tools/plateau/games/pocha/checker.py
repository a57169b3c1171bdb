"""`plateau replay` of a Pocha match (K7, K8, K10), from its events alone: each trick goes to
the card the rules say wins it (the trump turned, the led suit), each hand's tricks taken are
the tricks counted, its scores follow K8 from the bids, and the running totals add up; the
final ranking is the totals, highest first. What a log cannot tell (a card laid by the wrong
seat) it cannot check; the first event that does not follow is reported with why."""

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

    def feed(self, ev: dict) -> None:
        from plateau.fw.games.pocha.rules import card, score, winning

        kind = ev.get("type")
        if kind == "hand_start":
            self.table, self.taken, self.bids, self.trump = [], {}, {}, None
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
        elif kind == "match_end" and "ranking" in ev:
            totals = [r[1] for r in ev["ranking"]]
            if totals != sorted(totals, reverse=True):
                raise Mismatch("the final ranking is not highest total first (K10)")
            if self.totals is not None and any(
                self.totals.get(r[0]) != r[1] for r in ev["ranking"]
            ):
                raise Mismatch("the final ranking's totals are not the hands' totals")
            self.ranking = ev["ranking"]

    def summary(self) -> list[str]:
        end = (
            "final ranking " + ", ".join(f"{r[0]} ({r[1]})" for r in self.ranking)
            if self.ranking
            else f"totals {self.totals}"
        )
        return [f"pocha: {self.hands} hands, {self.tricks} tricks checked; {end}"]

    def state(self) -> dict:
        return {"game": "pocha", "totals": self.totals, "ranking": self.ranking}
