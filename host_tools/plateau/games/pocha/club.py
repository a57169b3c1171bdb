"""Pocha on the club's page: the hand, the trump, bids, tricks taken and the running scores,
and the final ranking for the league (equal totals share a place)."""

from __future__ import annotations

from plateau.club.state import HISTORY_KEPT, SPANISH_SUITS, Fold, amounts, card, text, texts


class Club(Fold):
    def feed(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        if kind == "hello":
            v["rules"] = text(ev.get("rules"))
            n = ev.get("players")
            if (
                isinstance(n, int)
                and not isinstance(n, bool)
                and 2 <= n <= 8
                and not v.get("seats")
            ):
                v["seats"] = [str(i) for i in range(1, n + 1)]  # K2: seated in play order
        if kind == "snapshot":
            for key in ("taken", "bids", "totals"):
                v[key] = amounts(ev.get(key))
            v["hand"], v["cards"] = ev.get("hand"), ev.get("cards")
            v["dealer"], v["phase"] = text(ev.get("dealer")), text(ev.get("phase"))
            v["trump"] = {"suit": text(ev.get("trump"))} if ev.get("trump") else None
        elif kind == "hand_start":
            v.update(
                hand=ev.get("hand"),
                cards=ev.get("cards"),
                dealer=text(ev.get("dealer")),
                tiebreak=bool(ev.get("tiebreak")),
                bids={},
                taken={},
                trick=[],
                trump=None,
                phase="trump",
            )
        elif kind == "trump":
            v["trump"] = {"card": text(ev.get("card")), "suit": text(ev.get("suit"))}
            v["phase"] = "bids"
        elif kind == "bid":
            seat = text(ev.get("seat"))
            if seat and isinstance(ev.get("bid"), int):
                v.setdefault("bids", {})[seat] = ev["bid"]
        elif kind == "play":
            v["phase"], v["trick"], v["leader"] = "play", [], text(ev.get("leader"))
        elif kind == "card" and text(ev.get("seat")):
            v.setdefault("trick", []).append({"seat": ev["seat"], "card": ev["card"]})
        elif kind == "trick":
            w = text(ev.get("winner"))
            if w:
                taken = v.setdefault("taken", {})
                taken[w] = taken.get(w, 0) + 1
            played = [p for p in v.get("trick", []) if isinstance(p, dict)]
            v["last_trick"] = {"winner": w, "cards": texts(ev.get("cards")), "played": played}
            v["trick"] = []
            v["leader"] = w  # K7: the trick's winner leads the next
        elif kind == "hand_end":
            for key in ("bids", "taken", "totals"):
                v[key] = amounts(ev.get(key))
            row = {
                "hand": ev.get("hand"),
                "scores": amounts(ev.get("scores")),
                **{k: v[k] for k in ("bids", "taken", "totals")},
            }
            v["history"] = (v.get("history", []) + [row])[-HISTORY_KEPT:]
            v["phase"] = "scored"
        elif kind == "match_end":
            # [seat, total, place] (K10: equal totals share a place); [seat, total] before
            ranking = [
                r[:2] + [r[2] if len(r) == 3 else r[1]]
                for r in ev.get("ranking", [])
                if isinstance(r, list) and len(r) in (2, 3)
            ]
            v["ranking"] = [r[:2] for r in ranking]
            groups: list[list[str]] = []
            last = None
            for seat, _total, place in ranking:
                if groups and place == last:
                    groups[-1].append(str(seat))
                else:
                    groups.append([str(seat)])
                last = place
            self.table.finish({"ranking": groups, "score": v.get("totals", {})}, line)
        if v.get("totals"):
            v["seats"] = sorted(v["totals"], key=lambda s: (len(s), s))
        v["to_play"] = _to_play(v)

    def said(self, kind: str, ev: dict, name) -> str | None:
        v = self.view
        if kind == "hand_start" and v.get("dealer"):
            n = v.get("cards")
            return f"hand {v.get('hand')}: {n} card{'s' * (n != 1)} each, {name(v['dealer'])} deals"
        if kind == "trump":
            suit = SPANISH_SUITS.get(str(ev.get("suit")), ev.get("suit"))
            return f"turned card {card(ev.get('card'), True)}: {suit} are trumps"
        if kind == "bid":
            return f"{name(ev['seat'])} bids {ev['bid']}"
        if kind == "card" and text(ev.get("seat")):
            return f"{name(ev['seat'])} plays {card(ev['card'], True)}"
        if kind == "trick" and text(ev.get("winner")):
            return f"{name(ev['winner'])} takes the trick"
        if kind == "hand_end" and v.get("totals"):
            totals = v["totals"]
            lead = max(totals, key=lambda s: totals[s])
            return f"hand {ev.get('hand')} scored: {name(lead)} leads with {totals[lead]}"
        if kind == "match_end" and v.get("ranking"):
            first = v["ranking"][0]
            return f"{name(first[0])} wins with {first[1]}"
        return None

    def headline(self, name) -> str | None:
        v = self.view
        ranking = v.get("ranking")
        if ranking:
            return f"{name(ranking[0][0])} wins with {ranking[0][1]}"
        if v.get("hand") is None:
            return None
        said = f"hand {v['hand']}, {v.get('cards', '?')} cards"
        who, phase = v.get("to_play"), v.get("phase")
        if who:
            said += f": {name(who)} to {'bid' if phase == 'bids' else 'play'}"
        totals = v.get("totals") or {}
        if totals:
            lead = max(totals, key=lambda s: totals[s])
            said += f" ({name(lead)} leads, {totals[lead]})"
        return said


def _to_play(v: dict) -> str | None:
    """Whose turn it is (K2, K5, K6: in seat order from the seat after the dealer, the
    trick's leader first), or None (between hands, the turned card awaited)."""
    seats = v.get("seats") or []
    if not seats:
        return None
    phase = v.get("phase")
    if phase == "bids":
        bids = v.get("bids") or {}
        start = v.get("dealer")
    elif phase == "play":
        trick = [p for p in v.get("trick") or [] if isinstance(p, dict)]
        if len(trick) >= len(seats):
            return None
        if not trick:
            return v.get("leader") if v.get("leader") in seats else None
        start, bids = trick[-1].get("seat"), {}
    else:
        return None
    if start not in seats:
        return None
    i = seats.index(start)
    for k in range(1, len(seats) + 1):
        seat = seats[(i + k) % len(seats)]
        if seat not in bids:
            return seat
    return None
