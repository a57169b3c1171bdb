"""The figures docs/chip.md and hardware/boards.md quote for the board's heap and the deployed
size are those of the bench run kept in tests/bench/results.txt (`make bench`): whoever keeps
a new run updates the docs with it. (They had drifted: the README, which held the board table
then, said the deployed .mpy files total 68 KB when the kept run said 93 KB, and that Pocha
ran as .mpy files when no game but Weykick did: adversarial tester's finding 27.)"""

import re

from plateau import ROOT

RESULTS = (ROOT / "tests" / "bench" / "results.txt").read_text()
CHIP = (ROOT / "docs" / "chip.md").read_text()  # the board table and figures
BOARDS = (ROOT / "hardware" / "boards.md").read_text()
ROWS = {"tock": "Tock", "weykick": "Weykick", "holdem": "Hold'em", "pocha": "Pocha"}


def kept(game: str, way: str) -> dict[str, int | None]:
    """The kept run's whole-game figures of one game loaded one way: in use at the peak, the
    lowest free (None where the game does not run at the board's heap)."""
    (line,) = re.findall(rf"^  {game} +{re.escape(way)} +(.*)$", RESULTS, re.M)
    fits = not line.startswith("does not run")
    free = re.search(r"lowest free +(\d+) B", line)
    return {
        "use": int(re.search(r"in use at the peak +(\d+) B", line)[1]),
        "free": int(free[1]) if fits and free else None,
    }


def kb(n: int) -> int:
    return round(n / 1024)


def near(said: int, measured: int) -> bool:
    return abs(said - measured) <= 1  # the docs round to a kilobyte or a percent


def test_the_board_table_is_the_kept_run():
    heap = 111_936
    for game, row in ROWS.items():
        (line,) = re.findall(rf"^\| {re.escape(row)}, [^|]*\|(.*)$", CHIP, re.M)
        frozen_use, frozen_free, files = [c.strip() for c in line.strip(" |").split("|")]
        frozen, as_files = (
            kept(game, "32-bit, firmware frozen"),
            kept(game, "32-bit, firmware as .mpy files"),
        )
        assert near(int(frozen_use.split()[0]), kb(frozen["use"])), (row, frozen_use, frozen)
        free_kb, pct = re.fullmatch(r"(\d+) KB \((\d+) %\)", frozen_free).groups()
        assert near(int(free_kb), kb(frozen["free"])), (row, frozen_free, frozen)
        assert near(int(pct), round(100 * frozen["free"] / heap)), (row, frozen_free, frozen)
        assert near(int(files.split()[0]), kb(as_files["use"])), (row, files, as_files)
        runs = "does not run" not in files
        assert runs == (as_files["free"] is not None), (row, files, as_files)


def test_the_deployed_size_the_docs_quote_is_the_kept_run():
    total = int(re.search(r"^ +(\d+) +total \.mpy deployed", RESULTS, re.M)[1])
    (said,) = re.findall(r"deployed `\.mpy` files total about (\d+) KB", CHIP)
    assert near(int(said), kb(total)), (said, total)


def test_boards_md_and_chip_md_quote_the_kept_run_for_tock():
    tock = kept("tock", "32-bit, firmware frozen")
    use, pct = re.search(r"yes: Tock (\d+) KB in use, (\d+) % free", BOARDS).groups()
    assert near(int(use), kb(tock["use"])) and near(int(pct), round(100 * tock["free"] / 111_936))
    files = kb(kept("tock", "32-bit, firmware as .mpy files")["use"])
    assert near(int(re.search(r"no: Tock needs about (\d+) KB", BOARDS)[1]), files)
    row = re.search(
        r"heap a Tock table needs at its peak \| about (\d+) KB \| about (\d+) KB", CHIP
    )
    assert near(int(row[1]), kb(tock["use"])) and near(int(row[2]), files), row
