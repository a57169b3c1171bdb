"""Tock cases the speed benchmarks share (tock_speed.py, tock_hints.py)."""

# tock_cases.py's: a 7 with 8 own pawns on the track (2 players, R+B)
EIGHT = {
    "rules": "classic",
    "players": 2,
    "turn": "R",
    "waiting": [],
    "pawns": {
        "R": ["R2", "R5", "R9", "G3"],
        "G": ["G10", "camp", "camp", "camp"],
        "B": ["B2", "B5", "B9", "Y3"],
        "Y": ["Y10", "camp", "camp", "camp"],
    },
}
