"""`plateau deploy`: one chained mpremote run (checked against mpremote's own command
parsers: no board here to run it on), a running table asked for its REPL first, clear words
for a port that is missing, and firmware/package.json (the mip route) kept current."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tty

from plateau import ROOT
from plateau.build import build
from plateau.deploy import PACKAGE_JSON, chain, package_json, plan


def plateau(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, env=env
    )


def segments(cmd):
    """An mpremote command line cut at its `+`s."""
    out, cur = [], []
    for a in cmd[1:]:
        if a == "+":
            out.append(cur)
            cur = []
        else:
            cur.append(a)
    return [*out, cur]


def test_the_chain_is_one_run_mpremote_itself_accepts():
    from mpremote import main as mp

    build(only_changed=True)
    files = plan("esp32s3")
    cmd = chain("/dev/ttyUSB0", files)
    segs = segments(cmd)
    assert segs[0][:2] == ["connect", "/dev/ttyUSB0"] and segs[-1] == ["reset"]
    assert segs[0][2] == "exec" and "os.mkdir" in segs[0][3]
    copied = {}
    mp.prepare_command_expansions(type("Config", (), {"commands": {}})())
    for seg in [segs[0][2:], *segs[1:]]:
        args = list(seg)
        mp.do_command_expansion(args)
        name = args.pop(0)
        _, parser_func = mp._COMMANDS[name]
        parsed = parser_func()
        parsed.add_argument("rest", nargs=argparse.REMAINDER)
        ns = parsed.parse_args(args)  # mpremote's own parser: exits on a bad command
        if name == "fs" and ns.command == ["cp"]:
            *srcs, dest = ns.path
            for src in srcs:
                to = dest[1:] + os.path.basename(src) if dest.endswith((":", "/")) else dest[1:]
                copied[src] = to.lstrip("/")
    want = {str(src): dest for src, dest in files}
    assert copied == want  # every file once, to its place, the pin map renamed
    dirs = {os.path.dirname(d) for d in want.values()} - {""}
    for d in dirs:
        assert repr(d) in segs[0][3]


def test_deploy_runs_mpremote_once_after_listening_for_a_table(tmp_path):
    build(only_changed=True)
    fake = tmp_path / "mpremote"
    record = tmp_path / "calls"
    fake.write_text(
        f'#!/bin/sh\nfor a in "$@"; do printf "%s\\036" "$a"; done >> {record}\necho >> {record}\n'
    )
    fake.chmod(0o755)
    master, slave = os.openpty()  # a silent port: a board at its REPL, no table talking
    tty.setraw(slave)
    port = os.ttyname(slave)
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}")
    try:
        done = plateau("deploy", "--port", port, env=env)
    finally:
        os.close(master)
        os.close(slave)
    assert done.returncode == 0, done.stderr
    calls = record.read_text().split("\036\n")
    assert len(calls) == 2 and calls[1] == ""  # one run, not one per file
    args = calls[0].split("\036")
    assert args[:3] == ["connect", port, "exec"] and args[-2:] == ["+", "reset"]
    n = len(plan())
    assert f"[{n}/{n}]" in done.stdout and "deployed" in done.stdout


def test_deploy_to_a_missing_port_says_so():
    build(only_changed=True)
    done = plateau("deploy", "--port", "/dev/nonexistent-plateau")
    assert done.returncode == 3
    assert "there is no port /dev/nonexistent-plateau" in done.stderr
    assert "Traceback" not in done.stderr


def test_package_json_is_current_and_names_what_deploy_copies():
    assert PACKAGE_JSON.read_text() == package_json(), "run: make mpy (plateau build makes it)"
    pkg = json.loads(PACKAGE_JSON.read_text())
    build(only_changed=True)
    deployed = {dest.removesuffix(".mpy") for _, dest in plan()}
    packaged = {dest.removesuffix(".py") for dest, _ in pkg["urls"]}
    assert {d.removesuffix(".py") for d in deployed} == packaged
    for _dest, src in pkg["urls"]:
        assert (PACKAGE_JSON.parent / src).resolve().is_file(), src


def test_the_build_makes_package_json_for_a_module_the_tree_gains(tmp_path):
    """`plateau build` (make mpy) writes package.json from the tree: a game's new module is in
    it without anyone editing it (a fifth game failed this file's test above), and a tree
    that did not change is left as it is."""
    tree = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", tree)
    shutil.copytree(ROOT / "firmware" / "games" / "tock", tree / "games" / "extra")
    before = (tree / "package.json").read_text()
    env = dict(os.environ, PLATEAU_FIRMWARE=str(tree))
    done = plateau("build", env=env)
    assert done.returncode == 0 and "package.json written" in done.stdout, done.stdout
    urls = [src for _, src in json.loads((tree / "package.json").read_text())["urls"]]
    assert "games/extra/tracker.py" in urls and "games/extra/tracker.py" not in before
    assert "games/extra/sim.py" not in urls  # never the simulator's
    done = plateau("build", env=env)
    assert done.returncode == 0 and "package.json" not in done.stdout, done.stdout
