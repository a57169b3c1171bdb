"""`plateau sim --serve` runs until Ctrl-C, or until a tool sends `repl`: a board then
restarts at its REPL (safe mode) for mpremote, which the simulator has not, so the served
table ends, and says so, where it used to end without a word and leave the next tool with
"cannot open /dev/pts/N" (adversarial tester's finding 26)."""

import pytest
from test_serve import Serving, plateau


# idle: a served script waits up to a minute for a first hello (plateau log, calibrate; not
# send) before it ends after a `repl`: that wait keeps a simulator's answer on its pty until
# a host has read it, so it stays, and the test does not spend a minute on it
@pytest.mark.parametrize("script", [None])
def test_a_served_table_ended_by_repl_says_so(tmp_path, script):
    args = []
    if script:
        (tmp_path / "s.table").write_text(script)
        args = [str(tmp_path / "s.table")]
    served = Serving(*args)
    try:
        done = plateau("send", "--port", served.port, "repl")
        assert done.returncode == 0 and "done: repl" in done.stdout, done.stderr
        assert served.proc.wait(120) == 0
        said = served.proc.stdout.read()
        assert "the simulated table has ended: a `repl` command" in said, said
        assert f"{served.port} is served no more" in said
    finally:
        if served.proc.poll() is None:
            served.stop()
        else:
            served.proc.stdout.close()
            served.proc.stderr.close()
