"""The documentation the repository carries (docs/, README.md, every --help): its examples
run, the rule ids the tests and messages cite are all written up, and nothing sends a reader
outside the repository (a clone has no ../shared)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLE = re.compile(r"^```table\n(.*?)^```", re.S | re.M)
SAYS = re.compile(r"^# the table says: (.*)$", re.M)


def plateau(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, timeout=timeout
    )


def examples():
    text = (DOCS / "scripts.md").read_text()
    return [m.group(1) for m in EXAMPLE.finditer(text)]


def test_scripts_md_has_an_example_of_every_game():
    games = {ex.split()[1] for ex in examples()}
    assert games == {"tock", "weykick", "holdem", "pocha"}


@pytest.mark.parametrize("n", range(len(examples())))
def test_every_example_of_scripts_md_runs(tmp_path, n):
    """Each ```table block of docs/scripts.md played by `plateau sim`: it runs to the end,
    the events its last comment promises come, and nothing it does not promise goes wrong
    (no `illegal`, no `error`, no refused command unless the example says so)."""
    script = examples()[n]
    (said,) = SAYS.findall(script)
    promised = {w.strip() for w in said.split(",")}
    path = tmp_path / "example.table"
    path.write_text(script)
    done = plateau("sim", str(path), "--json")
    assert done.returncode == 0, done.stderr
    evs = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = {e["type"] for e in evs}
    assert promised <= kinds, f"promised {promised - kinds}, got {sorted(kinds)}"
    for kind in ("illegal", "error"):
        if kind not in promised:
            assert kind not in kinds, [e for e in evs if e["type"] == kind]
    refused = [e for e in evs if e["type"] == "answer" and not e.get("ok")]
    assert not refused


IDS = re.compile(r"\b([TWHK][0-9]{1,2}b?|P[1-7])\b")
WHERE = {"T": "rules/tock.md", "W": "rules/weykick.md", "H": "rules/holdem.md"}
WHERE.update({"K": "rules/pocha.md", "P": "protocol.md"})


def cited_ids():
    """Rule ids named in test names and comments, and in the firmware's messages."""
    ids = set()
    for top in ("tests/firmware", "tests/host", "firmware/games", "firmware/link"):
        for f in (ROOT / top).rglob("*.py"):
            ids |= set(IDS.findall(f.read_text()))
    return ids


def test_every_cited_rule_id_is_written_up_in_docs():
    ids = cited_ids()
    assert {"T9", "W2", "H6", "K6", "K1b", "P2"} <= ids  # the search itself works
    missing = []
    for rid in sorted(ids):
        doc = (DOCS / WHERE[rid[0]]).read_text()
        if f"**{rid} " not in doc:
            missing.append(f"{rid} (docs/{WHERE[rid[0]]})")
    assert not missing, missing


# a reader sent outside the repository: the project's shared folder, its specs or seeds, a
# machine's own paths
OUTSIDE = re.compile(r"\.\./shared|shared/(specs|seeds|tools)|/work/|/home/")


def outside(text):
    """Lines that send a reader outside the repository. SHARED, the variable that names the
    project's build tools where a checkout has them, may be mentioned as such."""
    return [ln for ln in text.splitlines() if OUTSIDE.search(ln) and "SHARED" not in ln]


def test_docs_and_readme_stay_inside_the_repo():
    bad = {}
    for f in tracked():
        if f == Path(__file__) or f.suffix not in (".md", ".py", ".txt", ".json", ".toml"):
            continue
        lines = outside(f.read_text())
        if lines:
            bad[str(f.relative_to(ROOT))] = lines
    assert not bad, bad


def tracked():
    """The repository's files (git's list: a checkout's generated files, such as the
    package's egg-info, are not the project's text)."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        pytest.skip("not a git checkout: git ls-files failed")
    return [ROOT / name for name in out.stdout.split("\n") if name and (ROOT / name).is_file()]


def test_outside_finds_what_it_should():
    assert outside("see ../shared/specs/tock.md")
    assert outside("rules in /work/shared/specs")
    assert not outside("SHARED ?= ../shared, overridable")
    assert not outside("see docs/rules/tock.md")


def commands():
    from plateau.cli import parser

    sub = next(a for a in parser()._actions if a.dest == "command")
    return sorted(sub.choices)


def test_every_help_stays_inside_the_repo_and_points_at_docs():
    top = plateau("--help")
    assert top.returncode == 0
    assert "docs/" in top.stdout
    assert not outside(top.stdout)
    for name in commands():
        out = plateau(name, "--help")
        assert out.returncode == 0, (name, out.stderr)
        assert not outside(out.stdout), (name, out.stdout)


def test_readme_points_at_docs():
    readme = (ROOT / "README.md").read_text()
    assert "docs/README.md" in readme
    index = (DOCS / "README.md").read_text()
    for f in DOCS.rglob("*.md"):
        if f.name != "README.md":
            assert str(f.relative_to(DOCS)) in index, f"docs/README.md does not list {f.name}"


def _send_forms() -> dict[str, list[str]]:
    """`plateau send --help`'s command lines: word -> the arguments it lists by position."""
    from plateau.commands.board import send_words

    forms = {}
    for line in send_words().splitlines():
        words = line.split("(")[0].split()
        if line.startswith("  ") and words and words[0].islower() and words[0] != "e.g.":
            forms.setdefault(words[0], [w for w in words[1:] if w.isupper()])
    return forms


def _examples(text: str) -> list[list[str]]:
    """The commands a text shows for `plateau send`: `word args` in backticks."""
    return [m.split() for m in re.findall(r"`([a-z]+(?: [^`]*)?)`", text)]


def test_send_examples_use_the_form_send_help_lists():
    # the README wrote `enrol card=7H` where `plateau send --help` lists `enrol CARD`: an
    # argument the help lists by position is shown by position everywhere (by name once,
    # to say that it works too)
    from plateau.commands.board import send_words

    forms = _send_forms()
    assert forms["enrol"] == ["CARD"] and forms["bet"] == ["SEAT", "AMOUNT"]
    readme = (ROOT / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `plateau send"))
    help_eg = " ".join(line for line in send_words().splitlines() if "e.g." in line)
    pieces = re.split(r"[,;(]", help_eg.split("e.g.")[-1])
    help_eg = " ".join(f"`{c.strip()}`" for c in pieces)
    shown = 0
    for where, text in (("README", row), ("send --help", help_eg)):
        cmds = [w for w in _examples(text) if w[0] in forms and w[0] != "new"]
        for words in cmds:
            shown += 1
            named = [w.split("=", 1) for w in words[1:] if "=" in w]
            named = [(k, v) for k, v in named if k.upper() in forms[words[0]]]
            # by name only beside the same command by position (to say that it works too)
            same = [words[0]] + [v for _, v in named]
            assert not named or same in cmds, (
                f"{where} shows {' '.join(words)}; the help lists {words[0]} {forms[words[0]]}"
            )
    assert shown >= 6
