"""Weykick on the club's page: the score, the match clock, the series, the last goal, and
each match's result for the league (withdrawn again when undo takes it back)."""

from __future__ import annotations

from plateau.club.state import HISTORY_KEPT, Fold, amounts, text


class Club(Fold):
    def feed(self, kind: str, ev: dict, line: int) -> None:
        v = self.view
        v.setdefault("seats", ["A", "B"])
        settings = ev.get("settings")
        if isinstance(settings, dict):
            v["rules"] = text(settings.get("mode"))
            v["best_of"] = settings.get("best-of")
            v["variant"] = text(settings.get("variant"))
        elif kind == "hello" and text(ev.get("rules")):
            v["rules"] = ev["rules"]
        if "score" in ev:
            v["score"] = amounts(ev["score"])
        if "series" in ev:
            v["series"] = amounts(ev["series"])
        if isinstance(ev.get("match"), int):
            if ev.get("match") != v.get("match"):
                v.pop("winner", None)
            v["match"] = ev["match"]
        for key in ("match_ms", "clock_ms", "duration_ms"):
            if isinstance(ev.get(key), int):
                v["clock_ms"] = ev[key]
                v["clock_wall"] = self.table.updated
        if kind in ("snapshot", "resumed", "game"):
            v["paused"] = bool(ev.get("paused"))
            v["over"] = bool(ev.get("over"))
        if kind == "goal":
            v["last_goal"] = {k: ev.get(k) for k in ("side", "goal", "match_ms", "seen_ms")}
            v["goals"] = (v.get("goals", []) + [v["last_goal"]])[-HISTORY_KEPT:]
        elif kind == "undo":
            v["last_goal"] = {"undone": text(ev.get("side"))}
        elif kind == "pause":
            v["paused"] = True
        elif kind == "resume":
            v["paused"] = False
        elif kind == "golden_goal":
            v["golden_goal"] = True
        elif kind == "match_end":
            v["over"] = True
            v["winner"] = text(ev.get("winner"))
            v["series_over"] = bool(ev.get("series_over"))
            w = v["winner"]
            ranking = [[w], ["B" if w == "A" else "A"]] if w in ("A", "B") else [["A", "B"]]
            result = {"ranking": ranking, "score": v.get("score", {}), "match": v.get("match")}
            if isinstance(ev.get("duration_ms"), int):
                result["duration_s"] = round(ev["duration_ms"] / 1000, 1)  # the match clock
            self.table.finish(result, line)
        elif kind == "withdrawn":  # undo after the result: the match goes on
            v["over"] = False
            v.pop("winner", None)
            self.table.withdraw(ev.get("match"))
        elif kind == "game":
            v.update(over=False, golden_goal=False, last_goal=None, goals=[])
        v["running"] = not (v.get("paused") or v.get("over"))

    def said(self, kind: str, ev: dict, name) -> str | None:
        v = self.view
        score = v.get("score") or {}
        at = f"{score.get('A', 0)} - {score.get('B', 0)}"
        if kind == "goal":
            ms = ev.get("match_ms")
            clock = f" at {ms // 60000}:{ms // 1000 % 60:02d}" if isinstance(ms, int) else ""
            return f"goal for {name(ev['side'])}{clock}: {at}"
        if kind == "undo":
            return f"goal taken back: {at}"
        if kind == "game":
            return f"match {v.get('match') or 1} begins"
        if kind == "match_end":
            w = v.get("winner")
            said = f"{name(w)} won match {v.get('match') or 1}" if w else "a draw"
            return f"{said}, {at}" + (": the series is over" if v.get("series_over") else "")
        if kind == "withdrawn":
            return "the match's result taken back: the match goes on"
        if kind in ("pause", "resume"):
            return "paused" if kind == "pause" else "play resumes"
        if kind == "golden_goal":
            return "golden goal: the next goal wins"
        return None

    def headline(self, name) -> str | None:
        v = self.view
        score, series = v.get("score") or {}, v.get("series") or {}
        match = v.get("match") or 1
        of = f" of {v['best_of']}" if v.get("best_of") else ""
        said = f"{name('A')} {score.get('A', 0)} - {score.get('B', 0)} {name('B')}"
        if v.get("over") and v.get("winner"):
            said = f"{said}: {name(v['winner'])} won match {match}{of}"
        else:
            said = f"{said}, match {match}{of}"
        if series and (series.get("A") or series.get("B") or v.get("series_over")):
            said += f" (series {series.get('A', 0)} - {series.get('B', 0)}"
            said += ", over)" if v.get("series_over") else ")"
        return said
