"""The game registry (issue 21): a game is found by name, and adding one is what
docs/adding-a-game.md says. The last tests follow that page to the letter: they copy the
firmware, write the page's files into the copy, put in the page's registry line and play the
page's table script through `plateau sim` (the firmware under MicroPython, the host reading
its events), then take the game through the host tools a user has for a log, first without
its host module, then with it (in a copy of the host tools): the log, the index, replay,
`plateau gen`, the reset and chaos harnesses, the club's scoreboard and its league. None of
them is edited: a game is one firmware folder, one registry line and one host module."""

import ast
import importlib
import json
import random
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from clubkit import serving, table_state, wait_for
from simkit import logged, plateau, registry_with

from plateau import HARDWARE, ROOT
from plateau import games as host
from plateau.fw.games import GAMES, declaration
from plateau.fw.games.base import Game

PAGE = ROOT / "docs" / "adding-a-game.md"
LINE = re.compile(r"^GAMES = \(.*\)$", re.M)
VIEW = "host_tools/plateau/games/snap.py"


def page():
    """What the page writes: {path: text} of each `path`: line followed by a python block,
    the registry line, and the table script of its step 4."""
    text = PAGE.read_text()
    blocks = r"^`((?:firmware|host_tools)/[^`]+\.py)`:\n\n```python\n(.*?)```"
    files = re.findall(blocks, text, re.M | re.S)
    (line,) = LINE.findall(text)
    step4 = r"^\$ cat snap\.table\n(.*?)^\$ plateau sim snap\.table$"
    (script,) = re.findall(step4, text, re.M | re.S)
    return dict(files), line, script


@pytest.fixture(scope="module")
def snap(tmp_path_factory):
    """A checkout's copy as the page leaves it: firmware/ with Snap in it, the page's table
    script, and the page's host module (not written: the tests choose where)."""
    files, line, text = page()
    assert set(files) == {"firmware/games/snap/game.py", "firmware/games/snap/tracker.py", VIEW}
    # the page's line: Snap after the games there are (the registry's, as the page was written)
    names = ast.literal_eval(line.split("=", 1)[1].strip())
    assert names[-1] == "snap" and names[:-1] == GAMES[: len(names) - 1], line
    root = tmp_path_factory.mktemp("snap")
    shutil.copytree(ROOT / "firmware", root / "firmware")
    (root / "firmware/games/snap").mkdir()
    for path, src in files.items():
        if path.startswith("firmware/"):
            (root / path).write_text(src)
    (root / "firmware/games/snap/__init__.py").write_text("")
    assert registry_with(root / "firmware", "snap") == (*GAMES, "snap")
    return root, text, files[VIEW]


def test_the_pages_code_passes_the_projects_lint():
    """The page's files as the project's own (ruff with its settings, the firmware's
    exceptions included): a game added as the page says passes `make lint` as it is."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    files, _, _ = page()
    for path, src in files.items():
        for check in (["check"], ["format", "--check"]):
            done = subprocess.run(
                [ruff, *check, "--stdin-filename", path, "-"],
                input=src,
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            assert done.returncode == 0, (path, check, done.stdout + done.stderr)


def test_the_pages_firmware_type_checks_against_the_esp32_stubs(snap, tmp_path):
    """Snap's firmware files as `make typecheck` checks the firmware: against the ESP32 stubs
    (the page's `COMMANDS = {}` needed its type, as Tock's and Weykick's have)."""
    root, _, _ = snap
    stubs = Path(sys.executable).parents[1] / "esp32-stubs"  # make setup puts them there
    mypy = Path(sys.executable).parent / "mypy"
    if not (stubs.is_dir() and mypy.exists()):
        pytest.skip("no ESP32 stubs or mypy in this environment: make setup installs them")
    done = subprocess.run(
        [str(mypy), "--config-file", str(ROOT / "pyproject.toml"), "--custom-typeshed-dir"]
        + [str(stubs), "--cache-dir", str(tmp_path / "cache"), "--explicit-package-bases"]
        + ["games/snap"],
        capture_output=True,
        text=True,
        cwd=root / "firmware",
        env=env(MYPYPATH=str(stubs)),
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_game_is_declared_whole():
    for name in GAMES:
        decl = declaration(name)
        assert decl.DECK in (None, "french", "spanish")
        assert decl.SENSORS in (None, "squares", "goals")
        assert all(len(s) == 3 for s in decl.SETTINGS) and isinstance(decl.COMMANDS, dict)
        tracker = importlib.import_module(f"plateau.fw.games.{name}.tracker")
        assert issubclass(getattr(tracker, name.capitalize() + "Game"), Game)  # the table's
        assert not hasattr(decl, "make") and not hasattr(decl, "simulated")  # on the heap
        view = host.find(name)  # its host side: the generator slot, its plays
        for form in ("short", "chaos"):
            assert f"\ntable {name}" in "\n" + view.script(1, form)  # a script of this game
        assert view.OUTCOME in view.PLAYS and view.CHAOS_SPEED > 0
        assert view.PLAYED[0] in view.PLAYS  # what the index counts is one of its plays
        # plateau gen (a game whose generator reads no option has script alone), replay
        assert (view.gen is None or callable(view.gen)) and callable(view.replay)
        assert view.replay().summary()  # a checker fed nothing still says what it saw
    assert host.names() == GAMES


def test_an_unknown_game_is_refused_with_the_known_ones():
    for bad in ("chess", "", None, 3, "Tock", "tock "):
        with pytest.raises(ValueError, match="one of: tock, weykick, holdem, pocha"):
            declaration(bad)
        with pytest.raises(ValueError):
            host.find(bad)


@pytest.mark.parametrize("module", ["table.py", "dispatch.py"])
def test_the_table_has_no_branch_per_game(module):
    """table.py and the commands it hands on (dispatch.py) name no game: they ask the
    registry (comments and docstrings aside)."""
    src = (ROOT / "firmware" / module).read_text()
    code = re.sub(r'"""(.*?)"""', "", src, flags=re.S)
    code = "\n".join(line.split("#")[0] for line in code.splitlines())
    assert not [g for g in GAMES if g in code]


def test_adding_a_game_as_the_page_says_plays_through_plateau_sim(snap, tmp_path):
    root, text, _ = snap
    firmware = str(root / "firmware")
    script = tmp_path / "snap.table"
    script.write_text(text)
    done = plateau("sim", script, "--json", PLATEAU_FIRMWARE=firmware)
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    assert any(e.get("game") == "snap" for e in events if e["type"] == "hello")
    cards = [(e["card"], e["snap"]) for e in events if e["type"] == "card"]
    assert cards == [("7H", False), ("7S", True), ("2C", False), ("2D", True)]
    assert [e["snaps"] for e in events if e["type"] == "game_over"] == [2]
    assert not [e for e in events if e["type"] == "error"]
    # what the page says is refused, before anything runs: a setting out of the declared
    # range, an action Snap's table has no sensor for
    for bad, why in (
        ("table snap target=99\ncard 7H\n", "target must be a whole number from 1 to 52"),
        ("table snap\nmove R1 R2\n", "'move' is an action of tock tables; this one plays snap"),
        ("table snap\ncard 12B\n", "unknown card '12B'"),
    ):
        script.write_text(bad)
        done = plateau("sim", script, PLATEAU_FIRMWARE=firmware)
        assert done.returncode and why in done.stderr, done.stderr[-2000:]


def env(**more: str) -> dict:
    import os

    return dict(os.environ, **more)


def test_without_a_host_module_the_host_tools_take_the_game_as_it_comes(snap, tmp_path):
    """The checkout's host tools, Snap's firmware: `plateau sim --log --db` shows every event
    as a line and logs and indexes it, `plateau replay` counts the game (main said the log
    "holds no game"), `plateau index` and `plateau games` list it; `plateau gen` says which
    games it can write; the club lists its table."""
    root, text, _ = snap
    fw = {"PLATEAU_FIRMWARE": str(root / "firmware")}
    db = tmp_path / "index.sqlite"
    log = logged(tmp_path, "snap", text, "--db", db, **fw)
    kinds = [json.loads(x)["type"] for x in log.read_text().splitlines()]
    # the page's script cuts the power after two cards (each moved off the card spot once
    # read): the board resumes with nothing on the spot, then plays the two cards laid after
    assert kinds == [
        "hello",
        "snapshot",
        "card",
        "card",
        "resumed",
        "card",
        "card",
        "game_over",
    ], kinds
    shown = plateau("sim", tmp_path / "snap.table", **fw)  # the live view's text
    assert re.search(r'^#2 +card +card="7S" snap=true$', shown.stdout, re.M), shown.stdout
    assert re.search(r"^#6 +game_over +snaps=2$", shown.stdout, re.M), shown.stdout
    done = plateau("replay", log, **fw)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "snap: 8 events, not checked (the host has no rules for it)" in done.stdout
    done = plateau("replay", log, "--json", **fw)
    assert json.loads(done.stdout) == {"game": "snap", "events": 8}, done.stdout + done.stderr
    done = plateau("index", log, "--db", db, **fw)
    assert done.returncode == 0 and "game 1: snap " in done.stdout, done.stdout + done.stderr
    done = plateau("games", "--db", db, **fw)
    assert re.search(r"^game 1 +snap .* 0 moves", done.stdout, re.M), done.stdout
    done = plateau("gen", "--game", "snap", **fw)
    assert done.returncode == 2, done.stdout
    made = ", ".join(g for g in host.names() if host.find(g).script)  # the checkout's
    assert f"--game snap: one of {made}\n" in done.stderr, done.stderr
    # the club lists its table, its events counted, nothing drawn, no league
    fold = "from plateau.club.state import fold_log; import json, sys; s = fold_log(sys.argv[1])"
    fold += "; print(json.dumps([s.game, s.events, s.view, s.finished]))"
    done = subprocess.run(
        [sys.executable, "-c", fold, str(log)], capture_output=True, text=True, env=env(**fw)
    )
    assert json.loads(done.stdout) == ["snap", 8, {}, []], done.stdout + done.stderr


def test_its_host_module_is_found_by_every_host_tool_the_club_and_the_league(snap, tmp_path):
    """The page's host module written into a copy of the host tools (beside the firmware with
    Snap): `plateau gen` writes Snap games, the index counts their cards, `plateau replay`
    checks every snap and reports a changed one, the reset and chaos harnesses play Snap
    after the four games, the scoreboard draws its table and its league records its games.
    Each of them once needed a line naming the game (league.GAMES, club.js, the chaos and
    reset harnesses' seed tuples...)."""
    root, _, view = snap
    if not (root / "host_tools").exists():
        shutil.copytree(
            ROOT / "host_tools",
            root / "host_tools",
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
        )
        shutil.copytree(HARDWARE, root / "hardware")
        (root / VIEW).write_text(view)
    copy = {"PYTHONPATH": str(root / "host_tools")}  # its plateau first, with root/firmware
    rng = random.Random(21)
    for seed in rng.sample(range(10_000), 3):
        gen = plateau("gen", "--game", "snap", "--seed", seed, **copy)
        assert gen.returncode == 0 and gen.stdout.startswith("table snap target=3\n"), gen
        db = tmp_path / f"{seed}.sqlite"
        log = logged(tmp_path, str(seed), gen.stdout, "--db", db, **copy)
        events = [json.loads(x) for x in log.read_text().splitlines()]
        assert [e["snaps"] for e in events if e["type"] == "game_over"] == [3], events
        done = plateau("replay", log, **copy)
        assert done.returncode == 0 and "  snap: 3 snaps checked" in done.stdout, done.stdout
        done = plateau("games", "--db", db, **copy)
        assert re.search(r"^game 1 +snap .* 6 cards", done.stdout, re.M), done.stdout
        whole = log.read_text()  # the club's, below
        # one card's snap said wrong: replay names its line and why
        lines = log.read_text().splitlines()
        at = rng.choice([i for i, e in enumerate(events) if e["type"] == "card"])
        events[at]["snap"] = not events[at]["snap"]
        lines[at] = json.dumps(events[at])
        log.write_text("\n".join(lines) + "\n")
        done = plateau("replay", log, **copy)
        assert done.returncode == 1 and f"line {at + 1} " in done.stdout, done.stdout
        assert re.search(r"does not follow: \w+ on \S+ is (no )?snap$", done.stdout, re.M)
    done = plateau("resets", "--games", "snap", "--kills", "2", "--per-game", "2", **copy)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = r"^resets: 2 kill -9 over 1 games .*: 0 stuck, 0 plays lost, 0 doubled"
    assert re.search(said, done.stdout, re.M), done.stdout
    # and harder: 20 kills over two games, one with its host late (kills before it came, some
    # before Snap's first save: the page's game lost its first cards there when it did not
    # mark itself unsaved at its start)
    kills = ("--kills", "20", "--per-game", "10", "--short", "--seed", "11")
    done = plateau("resets", "--games", "snap", *kills, **copy)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = r"^resets: 20 kill -9 over 2 games .*: 0 stuck, 0 plays lost, 0 doubled"
    assert re.search(said, done.stdout, re.M), done.stdout
    done = plateau("chaos", "--game", "snap", **copy)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    said = r"^chaos: 1 whole games \(1 snap\), 7 events emitted: 0 lost .* 0 duplicated"
    assert re.search(said, done.stdout, re.M), done.stdout
    club = tmp_path / "club.jsonl"
    club.write_text(whole)
    in_the_club(club, tmp_path / "club.sqlite", copy)


def in_the_club(log, db, copy):
    """A finished Snap game's log served by the copy's scoreboard (`plateau serve --log`):
    its page's state is Snap's view (the card on top, 3 snaps), drawn as the host module's
    rows; the game is in the league (`/league/snap`, `plateau league --game snap`), and the
    page a browser shows (where chromium is installed) has the rows and the league's link."""
    events = [json.loads(x) for x in log.read_text().splitlines()]
    with serving(log, "t1", db, **copy) as url:
        wait_for(
            lambda: table_state(url, "t1").get("state", {}).get("line") == len(events),
            60,
            "the log's lines",
        )
        got = table_state(url, "t1")
        cards = [e["card"] for e in events if e["type"] == "card"]
        assert got["state"]["game"] == "snap" and events[-1]["type"] == "game_over"
        assert got["state"]["view"]["snaps"] == 3 and got["state"]["view"]["top"] == cards[-1]
        assert got["page"] == {"rows": [["Top card", "top"], ["Snaps", "snaps"]], "deck": "french"}
        with urllib.request.urlopen(f"{url}api/league/snap") as r:
            history = json.load(r)["history"]
        assert [h["ranking"] for h in history] == [[["1"]]] and history[0]["score"] == {"1": 3}
        browsed(url)
    done = plateau("league", "--db", db, "--game", "snap", **copy)
    assert done.returncode == 0 and "1 players, 1 recent snap results" in done.stdout, done


def browsed(url):
    """The table's page and the league's in chromium (skipped without it: the state above
    is what the page draws)."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return
    from test_club_browser import browser

    driver = browser()
    try:
        driver.get(f"{url}table/t1")
        wait_for(
            lambda: (
                driver.execute_script(
                    "const td = document.querySelector('#view td[data-key=snaps]');"
                    " return td && td.textContent"
                )
                == "3"
            ),
            30,
            "Snap's rows on its page",
        )
        links = driver.execute_script(
            "return [...document.querySelectorAll('#nav a')].map(a => a.textContent)"
        )
        assert "league: snap" in links, links
        driver.get(f"{url}league/snap")
        wait_for(
            lambda: (
                driver.execute_script("return document.querySelectorAll('#history tr').length") == 2
            ),
            30,
            "the league's one result",
        )
    finally:
        driver.quit()
