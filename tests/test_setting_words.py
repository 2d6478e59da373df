"""Every setting a form asks for has its words: a label and a one-line help in each of
the client's languages — each game's declared settings in the game's own strings
(``game.<name>.setting.<setting>`` and ``….help``), and the table's own options
(``TableIn``: seconds per turn, stake…) in the club's (``option.<name>`` and
``….help``). A setting added without them fails here, not on a newcomer's screen.
"""

from __future__ import annotations

import pytest

from taverna.games import GAMES
from taverna.server.lobby import TableIn
from taverna.server.pages import LANGUAGES

from .browser_helpers import game_folders, strings

#: the fields of a new table that are not options a form names: what is played and by whom
NOT_OPTIONS = {"game", "seats", "settings", "bots"}


def missing_words(words: dict[str, str], keys: list[str]) -> list[str]:
    return [k for k in keys if not str(words.get(k, "")).strip()]


def test_the_languages_are_the_four() -> None:
    assert set(LANGUAGES) == {"en", "it", "nl", "es"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_setting_has_a_label_and_a_help(lang: str) -> None:
    words = strings(lang)
    played = [name for name in GAMES if name in game_folders()]
    assert {"muggins-dominoes", "muggins-cards", "mus"} <= set(played)
    for name in played:
        declared = list(GAMES[name].setting_specs())
        assert declared, name
        keys = [f"game.{name}.setting.{s}{end}" for s in declared for end in ("", ".help")]
        assert not missing_words(words, keys), (lang, name, missing_words(words, keys))
    # the setting that came to light as raw names
    assert {"senas", "catch"} <= set(GAMES["mus"].setting_specs())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_option_has_a_label_and_a_help(lang: str) -> None:
    options = [f for f in TableIn.model_fields if f not in NOT_OPTIONS]
    assert {"turn_seconds", "muggins_wait", "stake", "bot_forget", "hints"} <= set(options)
    keys = [f"option.{o}{end}" for o in options for end in ("", ".help")]
    assert not missing_words(strings(lang), keys), (lang, missing_words(strings(lang), keys))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_help_is_one_line_and_not_the_label_again(lang: str) -> None:
    words = strings(lang)
    for key, text in words.items():
        setting = ".setting." in key or key.startswith("option.")
        if setting and key.endswith(".help"):
            label = words[key.removesuffix(".help")]
            assert "\n" not in text and len(text) <= 160, (lang, key, text)
            assert text.strip() != label.strip(), (lang, key)
