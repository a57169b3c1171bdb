"""Each player's page: `/player?name=NAME`. Every game the player was seated at (when, which
table and game, the place, the verdict, the rating change, a link to the game's moves), and
for each game of the league: the rating now, the games and wins, the rating after each rated
game (drawn on the page as a chart), and head to head against every other player met.

A player is a name as the operator gave it to a seat (names are the league's: club.league);
an unnamed seat is rated as `table:seat` and has a page as such. Everything is computed from
the recorded results in order, as the league's ratings are (League.rated): a corrected name or
a late result changes only what it should. Head to head and the rating count the results the
ratings count (rated and confirmed); the list of games shows every result, with its verdict.
A name the scoreboard has no result for: 404; no name, or one longer than any player's: 400."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from plateau import games
from plateau.club.league import COUNTED, MAX_NAME, START
from plateau.events import clean, excerpt

if TYPE_CHECKING:
    from plateau.club.league import League
    from plateau.club.server import Server

NAME_MAX = MAX_NAME + 1 + 32 + 1 + 8  # a player's name, or an unnamed seat's table:seat


def career(league: League, player: str) -> dict | None:
    """A player's page, None when no result names the player."""
    played: list[dict] = []
    per_game: dict[str, dict] = {}
    for game in games.league():
        rating: dict[str, float] = {}
        counts: dict[str, int] = {}
        wins: dict[str, int] = {}
        points: list[dict] = []
        met: dict[str, dict] = {}
        for res in league.rated(game, rating, counts, wins):
            names = res["names"]
            seats = [s for s in res["seats"] if names.get(s) == player]
            if not seats:
                continue
            place_of = {s: i for i, g in enumerate(res["ranking"]) for s in g}
            mine = place_of.get(seats[0])
            counted = res["verdict"] in COUNTED
            played.append(
                {
                    "id": res["id"],
                    "game": game,
                    "table": res["table"],
                    "rules": res["rules"],
                    "finished": res["finished"],
                    "epoch": res["epoch"],
                    "lines": res["lines"],
                    "verdict": res["verdict"],
                    "why": res["why"],
                    "place": None if mine is None else mine + 1,
                    "places": len(res["ranking"]),
                    "seats": len(res["seats"]),
                    "ranking": [[names.get(s, s) for s in g] for g in res["ranking"]],
                    "change": res["change"].get(player),
                    "rating": round(rating[player]) if counted and player in rating else None,
                }
            )
            if not counted:
                continue
            points.append(
                {"at": res["finished"], "rating": round(rating[player], 1), "result": res["id"]}
            )
            for seat, other in names.items():
                if other == player or seat not in place_of or mine is None:
                    continue
                h = met.setdefault(
                    other, {"opponent": other, "games": 0, "ahead": 0, "behind": 0, "level": 0}
                )
                h["games"] += 1
                theirs = place_of[seat]
                h["ahead" if mine < theirs else "behind" if mine > theirs else "level"] += 1
        if points or any(p["game"] == game for p in played):
            per_game[game] = {
                "game": game,
                "start": START,
                "rating": round(rating[player]) if player in rating else None,
                "games": counts.get(player, 0),
                "wins": wins.get(player, 0),
                "points": points,
                "head_to_head": sorted(met.values(), key=lambda h: (-h["games"], h["opponent"])),
            }
    if not played:
        return None
    played.sort(key=lambda p: (-(p["finished"] or 0), -p["id"]))
    return {"player": player, "games": per_game, "played": played}


class Careers:
    """The player pages, for the server's routes."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def who(self, request: web.Request) -> dict:
        """The page of the player a request names, or the HTTP error that says why not."""
        name = request.query.get("name")
        if name is None or not name.strip():
            raise web.HTTPBadRequest(text="which player? /player?name=NAME")
        if len(name) > NAME_MAX:
            raise web.HTTPBadRequest(text=f"no player's name is longer than {NAME_MAX} characters")
        league = self.server.club.league
        found = career(league, name) if league else None
        if found is None:
            shown = clean(excerpt(name, 48))
            raise web.HTTPNotFound(text=f"no result of this scoreboard names a player {shown!r}")
        return found

    async def api(self, request: web.Request) -> web.Response:
        from plateau.club.server import dumps

        return web.json_response(self.who(request), dumps=dumps)

    def routes(self) -> list[web.RouteDef]:
        shell = self.server.page("player")

        async def page(request: web.Request) -> web.StreamResponse:
            """The page, with the status of its player (404: none; 400: no name): its script
            asks the API, which says why."""
            resp = await shell(request)
            try:
                self.who(request)
            except web.HTTPException as e:
                resp.set_status(e.status)
            return resp

        return [web.get("/player", page), web.get("/api/player", self.api)]
