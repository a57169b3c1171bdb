"""The pictures of docs/feedback.md are what the simulator draws today (issue 29): each is
drawn again from its script (docs/feedback/pictures.json says which script and which of its
looks) with `plateau sim --pictures` and compared, so a change to what the table shows
changes the docs with it (`make test` says which picture differs; copy the new one over)."""

import json
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).parents[2] / "docs" / "feedback"


def test_the_docs_pictures_are_what_the_table_shows(tmp_path):
    table = json.loads((DOCS / "pictures.json").read_text())
    table.pop("about")
    drawn = {}
    for script in sorted({s for s, _ in table.values()}):
        out = tmp_path / script
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "sim", str(DOCS / script), "--draw", "none"]
            + ["--pictures", str(out)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        drawn[script] = sorted(out.glob("*.svg"))
    for picture, (script, which) in table.items():
        looks = drawn[script]
        got = looks[which - 1 if which > 0 else which]
        assert got.read_text() == (DOCS / picture).read_text(), (
            f"docs/feedback/{picture} is not what {script} draws now ({got.name}): "
            f"cp {got} docs/feedback/{picture}"
        )
