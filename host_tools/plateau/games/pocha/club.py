"""Pocha on the club's page: the hand, the trump, bids, tricks taken and the running scores,
and the final ranking for the league (equal totals share a place)."""

from __future__ import annotations

from plateau.club.state import HISTORY_KEPT, Fold, amounts, text, texts


class Club(Fold):
    def feed(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        if kind == "hello":
            v["rules"] = text(ev.get("rules"))
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
            v["last_trick"] = {"winner": w, "cards": texts(ev.get("cards"))}
            v["trick"] = []
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
