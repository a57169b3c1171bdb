"""`plateau sim --quiet-board` drew the Tock board after each move all the same (its help:
"no Tock board drawn after each move"; adversarial finding ADV5-8): it is --board none."""

from plateau.cli import main

TOCK = "table tock players=2 rules=classic\ncard AS\nmove RC1 R18\nwait 500\n"


def test_quiet_board_draws_no_board(tmp_path, capsys):
    (tmp_path / "t.table").write_text(TOCK)
    shown = {}
    for opt in ("--quiet-board", "--board=none", "--board=ring"):
        capsys.readouterr()
        assert main(["sim", str(tmp_path / "t.table"), opt]) == 0
        shown[opt] = capsys.readouterr().out
    lines = {opt: len(out.splitlines()) for opt, out in shown.items()}  # (boot ids differ)
    assert lines["--quiet-board"] == lines["--board=none"] < lines["--board=ring"]
    assert "camps:" in shown["--board=ring"] and "camps:" not in shown["--quiet-board"]
