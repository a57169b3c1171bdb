"""`plateau gen` refuses every option that is not the chosen game's, by one rule from the
games' own declarations (their gen_options, and PLAYERS for --players): the adversarial
tester found `--game weykick --players 3`, `--game tock --deck 48` and `--game tock --draw`
taken silently while `--game holdem --rules toc-fr` was refused. Every (game, other game's
option) pair is tried with a value of the option's own (its default: given is given, even
at its default), and a seeded sample of a game's own options is taken."""

import argparse
import random

import pytest

from plateau import games
from plateau.cli import main
from plateau.commands.gen import _made


def _run(capsys, argv):
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


def declared() -> dict[str, list[tuple[str, list[str]]]]:
    """Each game's own options as its declarations add them: (flag, a value's words)."""
    out = {}
    for name in _made():
        host = games.find(name)
        parser = argparse.ArgumentParser()
        group = parser.add_argument_group(name)
        if host.gen_options:
            host.gen_options(group)
        own = []
        for action in group._group_actions:
            flag = action.option_strings[-1]
            if action.nargs == 0:
                own.append((flag, []))
            elif action.default is not None:
                own.append((flag, [str(action.default)]))
            elif action.choices:
                own.append((flag, [str(next(iter(action.choices)))]))
            else:
                own.append((flag, ["classic"] if flag == "--rules" else ["1"]))
        if host.PLAYERS:
            own.append(("--players", ["3"]))
        out[name] = own
    return out


def test_every_other_games_option_is_refused(capsys, tmp_path):
    owned = declared()
    tried = 0
    for game in owned:
        mine = {flag for flag, _ in owned[game]}
        for other, options in owned.items():
            for flag, value in options:
                if flag in mine:
                    continue
                code, err = _run(
                    capsys, ["gen", "--game", game, flag, *value, "-o", tmp_path / "g"]
                )
                assert code == 2 and err.count("\n") == 1, (game, flag, err)
                assert f"{flag} is " in err and f"{game} has none" in err, (game, flag, err)
                assert other in err.split(" is ")[1].split(";")[0], (game, flag, other, err)
                tried += 1
    assert tried >= 8  # the registry's four games own at least this many between them
    assert not (tmp_path / "g").exists()  # refused before anything was written


@pytest.mark.parametrize("seed", range(2))
def test_a_games_own_options_are_taken(capsys, tmp_path, seed):
    rng = random.Random(seed)
    owned = declared()
    for game, options in owned.items():
        picked = rng.sample(options, min(len(options), rng.randrange(1, 3)))
        argv = ["gen", "--game", game, "--seed", rng.randrange(100)]
        for flag, value in picked:
            argv += [flag, *value]
        out = tmp_path / f"{game}.table"
        code, err = _run(capsys, [*argv, "-o", out])
        assert code == 0, (argv, err)
        assert f"table {game}" in out.read_text(), (argv, err)
