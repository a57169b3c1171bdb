"""Messages that say what is true (adversarial tester): `plateau replay ""` said "is a
folder" (an empty path is the current folder); `blinds=2/1` was refused as "small <= big
(1/2)" where the rule is H2, the big blind twice the small; `plateau send --help` listed
pause and resume as every table's words, and a Tock table refused them. Each is checked as
a class: every path option of every command, seeded blind pairs, every command word."""

import argparse
import random

from plateau import cli
from plateau.commands import in_file, out_file, out_folder, text_file
from plateau.commands.board import send_words
from plateau.fw.games import GAMES, declaration
from plateau.fw.games.settings import SettingsError, check
from plateau.fw.link.commands import TABLE, typed

PATH_TYPES = (in_file, out_file, out_folder, text_file)


def path_options(parser: argparse.ArgumentParser, words=()):
    """(the command's words, the option's flag or None for an argument) of every option and
    argument of every command that names a file or a folder."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from path_options(sub, (*words, name))
        elif action.type in PATH_TYPES:
            yield words, (action.option_strings[-1] if action.option_strings else None)


def test_an_empty_path_is_an_empty_name_in_every_command(capsys):
    found = list(path_options(cli.parser()))
    assert len(found) >= 10, found  # replay, sim, gen -o, log, index, club...
    for words, flag in found:
        argv = [*words, flag, ""] if flag else [*words, ""]
        capsys.readouterr()
        try:
            code = cli.main(argv)
        except SystemExit as e:
            code = e.code
        err = capsys.readouterr().err
        assert code == 2 and "empty name" in err and "folder" not in err, (argv, err)
    for kind in PATH_TYPES:
        for name in ("", " ", "\t"):
            try:
                kind(name)
            except argparse.ArgumentTypeError as e:
                assert "empty name" in str(e)
            else:
                raise AssertionError(f"{kind.__name__}({name!r}) was taken")


def test_blinds_are_refused_by_the_rule_h2_says(capsys):
    rng = random.Random(2)
    for _ in range(300):
        small = rng.randrange(1, 5000)
        big = rng.choice([rng.randrange(1, small + 1), small, 2 * small + rng.randrange(1, 9)])
        try:
            check("holdem", {"blinds": f"{small}/{big}"})
        except SettingsError as e:
            why = str(e)
        else:
            raise AssertionError(f"{small}/{big} taken")
        assert f"twice the small (H2): {small}/{2 * small}, not {small}/{big}" in why, why
        assert "<=" not in why
        assert (
            check("holdem", {"blinds": f"{small}/{2 * small}"})["blinds"] == f"{small}/{2 * small}"
        )


def test_send_help_names_the_games_of_every_word_not_every_tables():
    lines = send_words().splitlines()
    for game in GAMES:
        for word in declaration(game).COMMANDS:
            assert any(line.split()[:1] == [word] and f"({game})" in line for line in lines), (
                word,
                game,
            )
    assert "pause" not in TABLE and "resume" not in TABLE  # Weykick's words (its match clock)
    for word in TABLE:  # a table's word: taken whatever the game
        if word == "new":
            continue
        for game in GAMES:
            args = {"enrol": {"card": "7H"}, "unenrol": {"tag": "all"}}.get(word, {})
            args = {"settle_ms": 100} if word == "config" else args
            args = {"brightness": 40} if word == "feedback" else args
            typed({"cmd": word, **args}, game)
    for game in GAMES:
        for word in ("pause", "resume"):
            if word in declaration(game).COMMANDS:
                typed({"cmd": word}, game)
                continue
            try:
                typed({"cmd": word}, game)
            except SettingsError as e:
                assert f"for {game}" in str(e), e
            else:
                raise AssertionError(f"{word} taken for {game}")
