"""End to end (issue 7): the firmware under `micropython` -> pty -> pyserial -> plateau.
A whole game logged and replayed, a link dropped mid-game, garbage on the wire, every host
command."""

import json
import subprocess
import sys
import time

from conftest import REPORT

from plateau.cli import sim_events
from plateau.games.tock.generate import generate
from plateau.hostlink import HostLink, LinkError
from plateau.logger import read_log
from plateau.sim import Firmware


def plateau(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, timeout=timeout
    )


def numbered(log):
    return [ev for _, ev, *_ in read_log(log) if ev and "seq" in ev]


def test_P6_whole_game_logged_then_replayed(tmp_path):
    game = generate("classic", 3, seed=5)
    script = tmp_path / "game.table"
    script.write_text(game.script)
    log, db = tmp_path / "game.jsonl", tmp_path / "games.sqlite"
    done = plateau("sim", str(script), "--json", "--log", str(log), "--db", str(db))
    assert done.returncode == 0, done.stderr
    evs = numbered(log)
    assert [e["seq"] for e in evs] == list(range(1, len(evs) + 1))  # none lost, none twice
    moves = [e for e in evs if e["type"] == "move"]
    assert len(moves) == len(game.moves)
    replay = plateau("replay", str(log), "--json")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert json.loads(replay.stdout)["pawns"] == game.final.to_dict()["pawns"]
    import sqlite3

    rows = sqlite3.connect(db).execute("select game, moves, winner from games").fetchall()
    assert rows == [("tock", len(game.moves), game.winner)]


def test_P2_link_dropped_mid_game_loses_and_repeats_nothing(tmp_path):
    game = generate("classic", 4, seed=7)
    lines = game.script.split("\n")
    # pull the cable three times mid-game
    for at in (len(lines) // 4, len(lines) // 2, 3 * len(lines) // 4):
        lines.insert(at, "unplug 2500")
    script = tmp_path / "drops.table"
    script.write_text("\n".join(lines))
    log = tmp_path / "drops.jsonl"
    done = plateau("sim", str(script), "--json", "--log", str(log))
    assert done.returncode == 0, done.stderr
    evs = numbered(log)
    seqs = [e["seq"] for e in evs]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len([e for e in evs if e["type"] == "move"]) == len(game.moves)
    REPORT.append(
        f"link drops: 3 unplugs of 2.5 s in a {len(game.moves)}-move game: "
        f"{len(seqs)} events logged, 0 lost, 0 duplicated"
    )


def test_P6_replay_reports_the_first_event_that_does_not_follow(tmp_path):
    game = generate("classic", 2, seed=2)
    script = tmp_path / "g.table"
    script.write_text(game.script)
    log = tmp_path / "g.jsonl"
    assert plateau("sim", str(script), "--json", "--log", str(log)).returncode == 0
    lines = log.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if '"type":"move"' in line)
    ev = json.loads(lines[k])
    ev["steps"] = [["R1", "R9"]]
    lines[k] = json.dumps(ev)
    lines.insert(k + 1, '{"truncated": ')  # a corrupt line: skipped with a clear message
    log.write_text("\n".join(lines) + "\n")
    done = plateau("replay", str(log))
    assert done.returncode == 1
    assert f"line {k + 1}" in done.stdout and "does not follow" in done.stdout


def test_replay_of_a_file_that_is_not_a_log(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\nworld\n")
    done = plateau("replay", str(bad))
    assert done.returncode == 2 and "not JSON" in done.stderr and "holds no game" in done.stderr


def _session(tmp_path, script_text):
    script = tmp_path / "s.table"
    script.write_text(script_text)
    fw = Firmware(script, "--wait-host")
    link = HostLink(fw.port)
    link.open()
    link.fw = fw  # for _until
    return fw, link


def _until(link, pred, timeout=60.0):  # a bound for a failing test, not a speed target
    end = time.monotonic() + timeout
    for ev, _ in sim_events(link, link.fw):
        if pred(ev):
            return ev
        if time.monotonic() > end:
            raise AssertionError("timed out")
    raise AssertionError("link ended")


def _finish(fw, link):
    try:
        _until(link, lambda e: e["type"] == "sim_end" and not link.rx.behind())
        link.send({"cmd": "bye"})
    except (LinkError, AssertionError):
        pass
    link.close()
    return fw.wait()


def test_P1_garbage_on_the_wire_costs_nothing_but_itself(tmp_path):
    fw, link = _session(
        tmp_path, "table tock players=4\nwait 1500\ncard AS\nlift RC1\nplace R18\nwait 1500\n"
    )
    link._ser.write(b"\x03\x03garbage\x00\xff\xfe\x00" + bytes(range(1, 40)) + b"\x00")
    err = _until(link, lambda e: e["type"] == "error")
    assert err["what"] == "link"
    move = _until(link, lambda e: e["type"] == "move")
    assert move["steps"] == [["camp", "R18"]]
    assert _finish(fw, link) == 0


def test_P4_every_command_is_answered(tmp_path):
    fw, link = _session(tmp_path, "table tock players=4\nwait 4000\n")
    answers = {}
    for cmd in (
        {"cmd": "snapshot"},
        {"cmd": "undo"},
        {"cmd": "new", "game": "tock", "players": 2, "rules": "toc-fr"},
        {"cmd": "config", "settle_ms": 100},
        {"cmd": "config", "settle_ms": 5},
        {"cmd": "config", "colour": "red"},
        {"cmd": "enrol", "card": "7H"},
        {"cmd": "enrol", "card": "7Z"},
        {"cmd": "fly"},
        {"cmd": "new", "players": 5},
    ):
        cid = link.send(dict(cmd))
        ans = _until(link, lambda e, cid=cid: e["type"] == "answer" and e["id"] == cid)
        answers[json.dumps(cmd)] = (ans["ok"], ans.get("why", ""))
    ok = [k for k, v in answers.items() if v[0]]
    assert ok == [
        '{"cmd": "snapshot"}',
        '{"cmd": "new", "game": "tock", "players": 2, "rules": "toc-fr"}',
        '{"cmd": "config", "settle_ms": 100}',
        '{"cmd": "enrol", "card": "7H"}',
    ]
    why = {k: v[1] for k, v in answers.items() if not v[0]}
    assert why['{"cmd": "undo"}'] == "nothing to undo"
    assert "from 20 to 2000" in why['{"cmd": "config", "settle_ms": 5}']
    assert "unknown argument 'colour'" in why['{"cmd": "config", "colour": "red"}']
    assert "unknown card" in why['{"cmd": "enrol", "card": "7Z"}']
    assert "unknown command" in why['{"cmd": "fly"}']
    assert "players" in why['{"cmd": "new", "players": 5}']
    assert _finish(fw, link) == 0


def test_P4_enrol_then_the_tag_is_that_card(tmp_path):
    fw, link = _session(
        tmp_path,
        "table tock players=4\nwait 300\ntag 04AABBCCDDEEFF\n"
        "wait 1000\nlift RC1\nplace R18\nwait 1000\n",
    )
    link.send({"cmd": "enrol", "card": "AS"})
    ev = _until(link, lambda e: e["type"] in ("enrolled", "error"))
    assert ev["type"] == "enrolled" and ev["uid"] == "04AABBCCDDEEFF" and ev["card"] == "AS"
    assert _finish(fw, link) == 0


def test_plateau_send_and_its_errors(tmp_path):
    script = tmp_path / "s.table"
    script.write_text("table tock players=4\nwait 100\n")
    fw = Firmware(script, "--wait-host")  # waits for a hello: commands are served meanwhile
    try:
        done = plateau("send", "--port", fw.port, "--timeout", "60", "undo", timeout=120)
        assert done.returncode == 1 and "refused: nothing to undo" in done.stdout
        done = plateau(
            "send", "--port", fw.port, "--timeout", "60", "new", "tock", "players=3", timeout=120
        )
        assert done.returncode == 0 and "done" in done.stdout
        done = plateau("send", "--port", fw.port, "--timeout", "60", "dance", timeout=120)
        assert done.returncode == 2 and "unknown command" in done.stderr
    finally:
        fw.stop()
    done = plateau("send", "--port", "/dev/nonexistent-plateau", "undo")
    assert done.returncode == 3 and "cannot open /dev/nonexistent-plateau" in done.stderr


def test_send_new_game_is_checked_against_the_tables_kept_settings_by_the_board(tmp_path):
    """`plateau send new GAME k=v` (adversarial tester's finding 14): the host checked k=v
    against the game's default settings, so `new pocha dealer=8` on an 8-player table, or six
    stacks on a 6-seat Hold'em table, were refused (exit 2) though the board takes them. The
    host checks each value's own kind; what depends on the kept settings the board refuses in
    words (exit 1). Seeded table sizes."""
    import random

    rng = random.Random(14)
    script = tmp_path / "s.table"
    script.write_text("table tock players=4\nwait 100\n")
    fw = Firmware(script, "--wait-host")

    def send(*words):
        return plateau("send", "--port", fw.port, "--timeout", "60", *words, timeout=120)

    try:
        players = rng.choice([5, 6, 8])
        assert send("new", "pocha", f"players={players}").returncode == 0
        done = send("new", "pocha", f"dealer={rng.randint(5, players)}")
        assert done.returncode == 0 and "done" in done.stdout, done.stderr
        seats = rng.randint(5, 10)
        assert send("new", "holdem", f"seats={seats}").returncode == 0
        stacks = ",".join(str(rng.randint(1, 500)) for _ in range(seats))
        done = send("new", "holdem", f"stacks={stacks}", f"button={rng.randint(5, seats)}")
        assert done.returncode == 0 and "done" in done.stdout, done.stderr
        short = ",".join(["7"] * (seats - 1))  # agrees with no kept seat count: the board says
        done = send("new", "holdem", f"stacks={short}")
        assert done.returncode == 1 and f"{seats - 1} values for {seats} seats" in done.stdout
        done = send("new", "holdem", "button=0")  # its own kind: the host refuses at once
        assert done.returncode == 2 and "button must be a seat" in done.stderr
        done = send("new", "holdem", "dealer=2")
        assert done.returncode == 2 and "unknown setting 'dealer' for holdem" in done.stderr
    finally:
        fw.stop()


def test_P2_board_reset_mid_game_resumes_and_the_log_replays(tmp_path):
    game = generate("king-exit", 3, seed=11)
    lines = game.script.split("\n")
    at = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("lift"))
    lines.insert(at + 1, "reset")  # the power goes with a pawn in the air
    script = tmp_path / "reset.table"
    script.write_text("\n".join(lines))
    log = tmp_path / "reset.jsonl"
    done = plateau("sim", str(script), "--json", "--log", str(log))
    assert done.returncode == 0, done.stderr
    evs = numbered(log)
    # the board restarted and went on with its numbering (kept on flash): one boot id,
    # 1, 2, 3 ... with nothing lost or doubled
    assert len({e["boot"] for e in evs}) == 1
    assert [e["seq"] for e in evs] == list(range(1, len(evs) + 1))
    assert len([e for e in evs if e["type"] == "move"]) == len(game.moves)
    assert [e["type"] for e in evs].count("resumed") == 1
    replay = plateau("replay", str(log), "--json")
    assert replay.returncode == 0, replay.stdout
    assert json.loads(replay.stdout)["pawns"] == game.final.to_dict()["pawns"]


def test_host_restarted_asks_only_for_what_it_missed(tmp_path):
    """The first host dies at a random point (after a random delay before reading, so the
    simulator may have finished its script, said sim_end and be waiting for bye before the
    first byte is read: what a loaded machine does); the second takes up from its log.
    Whatever the timing, the log ends with every event once. Seeded: the same delays each
    run, none of them a race the test depends on."""
    import random

    from plateau.logger import Logger, last_event

    rng = random.Random(15)
    for trial in range(3):
        fw, link = _session(
            tmp_path,
            "table tock players=4\ncard AS\nlift RC1\nplace R18\nwait 400\ncard 5H\nwait 3000\n",
        )
        time.sleep(rng.choice([0, 0.3, 1.5]))  # a slow host: the script may be over by now
        log_path = tmp_path / f"host{trial}.jsonl"
        log = Logger(log_path)
        stop_after = rng.choice(["hello", "card", "move"])
        for ev, logged in sim_events(link, fw):  # the first host logs until then, and dies
            if logged:
                log.write(ev)
            if ev["type"] == stop_after:
                break
        log.close()
        link.close()
        time.sleep(rng.choice([0, 0.5]))
        again = HostLink(fw.port)
        again.boot, again.seq, _ = last_event(log_path)
        log = Logger(log_path)
        for ev, logged in sim_events(again, fw):
            if ev["type"] == "sim_end" and not again.rx.behind():
                again.send({"cmd": "bye"})
                break
            if logged:
                log.write(ev)
        log.close()
        again.close()
        assert fw.wait() == 0
        seqs = [e["seq"] for e in numbered(log_path)]
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 4, (trial, seqs)


def test_P3_follow_reconnects_by_itself_when_the_port_comes_back():
    from plateau.hostlink import follow

    class Flaky(HostLink):
        """A port that is gone twice, then back."""

        def __init__(self):
            super().__init__("/dev/flaky")
            self.tries = 0

        def open(self, hello=True):
            self.tries += 1
            if self.tries < 3:
                raise LinkError("cannot open /dev/flaky: gone")

        def received(self):
            yield {"type": "hello", "boot": "b"}, True

        def close(self):
            pass

    said = []
    link = Flaky()
    ev, _ = next(follow(link, say=said.append, retry_s=0.01))
    assert ev["type"] == "hello" and link.tries == 3
    assert "reconnecting" in said[0] and "back after" in said[1]


def test_H9_plateau_holdem_showdown_prints_pots_hands_and_winners():
    done = plateau(
        "holdem",
        "showdown",
        "--board",
        "AS KS QS JS 2D",
        "--hands",
        "1=AH AD",
        "2=7C 8C",
        "--bets",
        "1=100",
        "2=60",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    r = json.loads(done.stdout)
    assert r["returned"] == {"1": 40} and r["won"] == {"1": 120}
    assert r["hands"]["1"]["category"] == "three of a kind"
    bad = plateau(
        "holdem", "showdown", "--board", "AS KS QS JS 2D", "--hands", "1=AS AD", "--bets", "1=10"
    )
    assert bad.returncode == 2 and "read twice: AS" in bad.stderr


def test_a_simulator_slow_to_start_is_waited_for_not_taken_for_a_dead_link(
    tmp_path, monkeypatch, capsys
):
    """A loaded machine can keep the simulator silent longer than the host's 3 s dead-link
    rule: `plateau sim` and `plateau send` must wait it out, not end early (the class of
    failure behind the test above failing on a loaded machine). The delay is made, not
    hoped for: micropython starts 4 s late."""
    import plateau.sim
    from plateau.cli import main

    real = plateau.sim.micropython()
    slow = tmp_path / "slow-micropython"
    slow.write_text(f'#!/bin/sh\nsleep 4\nexec "{real}" "$@"\n')
    slow.chmod(0o755)
    monkeypatch.setattr(plateau.sim, "micropython", lambda: str(slow))
    script = tmp_path / "s.table"
    script.write_text("table tock players=4\ncard AS\nlift RC1\nplace R18\nwait 500\n")
    assert main(["sim", str(script), "--json"]) == 0
    evs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["type"] for e in evs if "seq" in e] == ["card", "move"]
    fw = Firmware(script, "--wait-host")
    try:
        assert main(["send", "--port", fw.port, "--timeout", "60", "undo"]) == 1
        assert "refused: nothing to undo" in capsys.readouterr().out
    finally:
        fw.stop()
