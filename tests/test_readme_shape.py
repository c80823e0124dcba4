"""The README as a new user meets it: short, a plain first sentence, the two commands on
its first screen, the sections a first hour needs, and every main option in its table."""

import re

from _support import REPO, run_cli

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 250


def test_the_first_screen_has_a_plain_sentence_and_two_commands() -> None:
    first_screen = README[: README.index("\n## ")]
    sentence = first_screen.split("\n\n")[1].split(". ")[0]
    assert sentence.startswith("`apply_patch` takes the edits a language model writes")
    commands = re.findall(r"^(make \w+)", first_screen, re.M)
    assert commands == ["make demo", "make test"]
    assert first_screen.count("```sh") == 1


def test_the_sections_of_a_first_hour() -> None:
    titles = re.findall(r"^## (.+)$", README, re.M)
    assert "Apply a chat reply" in titles and "Why not `git apply` or `patch`" in titles
    assert titles.index("Apply a chat reply") < titles.index("Command line")


def test_the_stdin_form_comes_before_the_argument_form_with_the_reason() -> None:
    cli = README[README.index("## Command line") :]
    assert cli.index("< change.patch") < cli.index("'PATCH'")
    assert "silently" in cli and "`'`" in cli


def test_the_options_table_names_every_main_option() -> None:
    table = README[README.index("| option | meaning |") :]
    table = table[: table.index("\n\n")]
    help_text = run_cli(["--help"], REPO).stdout.decode()
    section = help_text[help_text.index("options:") : help_text.index("file policies")]
    main = set(re.findall(r"^  (-[-\w]+)", section, re.M))
    assert {"--format", "--stage", "-C", "--codex"} <= main, section
    missing = [option for option in sorted(main) if f"`{option}" not in table]
    assert missing == []
