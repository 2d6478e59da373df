"""A game is declared once (issue 15): no game's name appears in Python or JavaScript
outside that game's own modules. Every other layer finds the games through the
registry (``taverna/registry.py``, ``/api/games``, ``js/games.js``), so a fourth game is
a package of its own (``tests/test_plugin_game.py``).

A game's own modules are the files and folders named after its module (``dominoes``,
``cards``, ``mus``) in each layer: ``games/mus/``, ``bots/mus.py``, ``play/mus.py``,
``bench/mus.py``, ``web/games/mus/``. Prose is free to name the games (docstrings,
comments); code and its strings are not: no string holds a game's record name or
alias, no Python name is a game's class. (A variable called ``cards`` names no game.)
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from taverna.games import GAMES

PACKAGE = Path(__file__).resolve().parent.parent / "taverna"


def names() -> dict[str, tuple[set[str], str]]:
    """Each game's module name, and what names it: the words of its record name and
    aliases, and its class name."""
    return {
        cls.__module__.split(".")[2]: ({cls.game, *cls.aliases}, cls.__name__)
        for cls in GAMES.values()
        if cls.__module__.startswith("taverna.games.")
    }


def pattern(words: set[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")


def own(path: Path, module: str) -> bool:
    """Whether ``path`` is one of the modules of the game whose module is ``module``."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return module in parts or any(p.startswith(f"{module}_") for p in parts)


def python_code(path: Path) -> list[tuple[int, str]]:
    """The names and strings of a Python file that are code: not docstrings, not comments
    (a string keeps its quotes)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
    out = []
    skip = {tokenize.NL, tokenize.COMMENT}
    # an f-string is one STRING token before Python 3.12, its parts after
    kinds = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    for i, tok in enumerate(tokens):
        if tok.type not in kinds:
            continue
        if tok.type == tokenize.STRING:
            j = i - 1
            while j >= 0 and tokens[j].type in skip:
                j -= 1
            # a string that is a statement of its own is a docstring
            if j < 0 or tokens[j].type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                continue
        out.append((tok.start[0], tok.string))
    return out


#: a JavaScript comment, or a string (quotes or backticks; an escaped quote stays in)
JS_TOKEN = re.compile(
    r"/\*.*?\*/|//[^\n]*|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"|`(?:\\.|[^`\\])*`", re.S
)


def javascript_strings(path: Path) -> list[tuple[int, str]]:
    """The strings of a JavaScript file (not its comments), with their lines."""
    text = path.read_text()
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(0))
        for m in JS_TOKEN.finditer(text)
        if not m.group(0).startswith("/")
    ]


def test_no_game_is_named_outside_its_own_modules() -> None:
    games = names()
    assert set(games) == {"dominoes", "cards", "mus"}
    words = pattern(set().union(*(w for w, _ in games.values())))
    classes = {c for _, c in games.values()}
    found = []
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]:
        if any(own(path, module) for module in games):
            continue
        if path.suffix == ".py":
            code = python_code(path)
            hits = [(n, x) for n, x in code if x in classes or (x[-1] in "'\"" and words.search(x))]
        else:
            hits = [(n, x) for n, x in javascript_strings(path) if words.search(x)]
        found += [f"{path.relative_to(PACKAGE)}:{n}: {x[:80]}" for n, x in hits]
    assert not found, "\n".join(found)


def test_the_scan_finds_a_name_where_it_should_not_be(tmp_path: Path) -> None:
    """The scan itself: a name in code is found, in a docstring or a comment it is not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Plays mus."""\n'
        "# mus, in a comment\n"
        "x = 1\n"
        'GAME = "mus"\n'
        "def f():\n"
        '    """mus again"""\n'
        "    return Mus\n"
    )
    words = [text for _, text in python_code(sample) if pattern({"mus", "Mus"}).search(text)]
    assert words == ['"mus"', "Mus"]
    script = tmp_path / "sample.js"
    script.write_text(
        "// mus\nconst mus = 'mus'; /* mus */\nconst url = `http://x/mus`; // mus\n"
        "const no = 'it\\'s a musical'; const k = t('mus.pair');\n"
    )
    lines = [(n, x) for n, x in javascript_strings(script) if pattern({"mus"}).search(x)]
    assert lines == [(2, "'mus'"), (3, "`http://x/mus`"), (4, "'mus.pair'")]
