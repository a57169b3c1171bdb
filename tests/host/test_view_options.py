"""The live view's options: `--draw` (how a game's table is drawn after each event: Tock's
ring, its rows, or nothing), `--board` its old spelling (kept working, hidden from the help),
and `plateau sim --quiet-board`, which drew the Tock board after each move all the same (its
help: "no Tock board drawn after each move"; adversarial finding ADV5-8): it is --draw none."""

import re

from plateau.cli import main

TOCK = "table tock players=2 rules=classic\ncard AS\nmove RC1 R18\nwait 500\n"


EVENT = re.compile(r"(#\d+ +| {6})[a-z_]+ {2,}\S")  # `#2    move       R plays...`


def drawn(out):
    """The drawing's lines: not an event's nor a `--` line of the tool's own. Counting every
    line failed under load (a load average of 20): one line more in one run than the next."""
    return [x for x in out.splitlines() if not EVENT.match(x) and not x.startswith("--")]


def shown_with(tmp_path, capsys, *opts):
    (tmp_path / "t.table").write_text(TOCK)
    shown = {}
    for opt in opts:
        capsys.readouterr()
        assert main(["sim", str(tmp_path / "t.table"), opt]) == 0
        shown[opt] = capsys.readouterr().out
    return shown


def test_quiet_board_draws_no_board(tmp_path, capsys):
    shown = shown_with(tmp_path, capsys, "--quiet-board", "--board=none", "--board=ring")
    lines = {opt: len(drawn(out)) for opt, out in shown.items()}
    assert lines["--quiet-board"] == lines["--board=none"] == 0 < lines["--board=ring"]
    assert "camps:" in shown["--board=ring"] and "camps:" not in shown["--quiet-board"]


def test_draw_is_the_style_and_board_its_old_spelling(tmp_path, capsys):
    opts = ("--draw=none", "--board=none", "--draw=rows", "--board=rows", "--draw=ring")
    shown = shown_with(tmp_path, capsys, *opts)
    lines = {opt: len(drawn(out)) for opt, out in shown.items()}
    assert lines["--draw=none"] == lines["--board=none"] == 0 < lines["--draw=rows"]
    assert lines["--draw=rows"] == lines["--board=rows"] < lines["--draw=ring"]
    assert "R1-18" in shown["--draw=rows"] and "camps:" in shown["--draw=ring"]
    capsys.readouterr()
    for command in ("sim", "log"):
        try:
            main([command, "--help"])
        except SystemExit:
            pass
        text = capsys.readouterr().out
        assert "--draw" in text and "--board" not in text, text
