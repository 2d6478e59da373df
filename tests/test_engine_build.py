"""The compiled engines (issue 19): built by mypyc from the very source, they play the
same games as the source (the same fingerprint), and a stale build is never run."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taverna import native
from taverna.games import get_game
from taverna.games.base import Dealer

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "scripts" / "engine_trace.py"
GAMES = ("muggins-dominoes", "muggins-cards", "mus")


def python(code: str, env: dict[str, str] | None = None, path: Path | None = None) -> str:
    """Run ``code`` in a new interpreter (the build is chosen once per process)."""
    full = {k: v for k, v in os.environ.items() if k != native.ENV}
    full.update(env or {})
    if path is not None:
        full["PYTHONPATH"] = str(path)
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=full,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=path or ROOT,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def compiled_available() -> bool:
    return native.built_status().build == "compiled"


def test_the_build_in_use_is_the_one_said() -> None:
    assert native.running() == native.status().build, native.status()
    said = python("from taverna import native; print(native.status().build, native.running())")
    build, loaded = said.split()
    assert build == loaded


def test_a_machine_that_can_compile_runs_the_compiled_engines() -> None:
    """Where a C compiler and mypyc are (this machine, CI), ``make test`` compiled the
    engines: a pure-Python run here is a stale or failed build, and this says why."""
    if os.environ.get(native.ENV) == "python":
        pytest.skip("the pure-Python run asked for (make test-pure)")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the pure-Python build is the one to run")
    pytest.importorskip("mypyc")
    assert native.status().build == "compiled", (
        f"the engines run as {native.status()}: make engines compiles them"
    )


def test_the_pure_build_is_asked_for_by_the_environment() -> None:
    if not compiled_available():
        pytest.skip(f"nothing compiled here: {native.built_status()}")
    said = python(
        "import sys\n"
        "from taverna import native\n"
        "import taverna.games.dominoes as d\n"
        "print(native.status().build, d.__file__.endswith('.py'),"
        " 'taverna.games._native__mypyc' in sys.modules)",
        env={native.ENV: "python"},
    )
    assert said == "python True False"
    said = python("from taverna import native; print(native.status().build, native.running())")
    assert said == "compiled compiled"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_both_builds_play_the_same_games(game: str) -> None:
    """The fingerprint of everything a user of the engine can observe (events per seat,
    views, legal actions, refusals and their reasons, clones, samples, records and their
    replays: scripts/engine_trace.py) is the same on the compiled and the pure build."""
    if not compiled_available():
        pytest.skip(f"nothing compiled here: {native.built_status()}")
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{str(TRACE)!r}, {game!r}, '2']\n"
        f"runpy.run_path({str(TRACE)!r}, run_name='__main__')\n"
        "from taverna import native\n"
        "print(native.running())\n"
    )
    compiled = python(code).split()
    pure = python(code, env={native.ENV: "python"}).split()
    assert compiled[1] == "compiled" and pure[1] == "python"
    assert len(compiled[0]) == 64
    assert compiled[0] == pure[0], f"{game}: the compiled build plays another game"


def test_a_stale_build_is_never_run(tmp_path: Path) -> None:
    """An engine edited after it was compiled: the process runs the edited source, and
    says that the compiled build is stale."""
    if not compiled_available():
        pytest.skip(f"nothing compiled here: {native.built_status()}")
    copy = tmp_path / "taverna"
    shutil.copytree(native.ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "web"))
    source = copy / "games" / "dominoes.py"
    source.write_text(source.read_text() + "\nEDITED = 'after the build'\n")
    said = python(
        "from taverna import native\n"
        "import taverna.games.dominoes as d\n"
        "print(native.__file__)\n"
        "print(native.status())\n"
        "print(native.running(), d.EDITED)\n",
        path=tmp_path,
    ).splitlines()
    assert said[0].startswith(str(tmp_path)), said
    assert said[1] == ("python (stale: dominoes.py changed since compiled; run make install)"), said
    assert said[2] == "python after the build"


def test_a_build_for_another_python_or_without_its_manifest_is_not_run(
    tmp_path: Path, monkeypatch: Any
) -> None:
    if not compiled_available():
        pytest.skip(f"nothing compiled here: {native.built_status()}")
    manifest = native.MANIFEST.read_text()
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "none.json")
    assert native.built_status().build == "python"
    assert "without a manifest" in native.built_status().why
    other = tmp_path / "other.json"
    other.write_text(manifest.replace(sys.implementation.cache_tag, "cpython-399"))
    monkeypatch.setattr(native, "MANIFEST", other)
    assert native.built_status() == native.Status(
        "python", "compiled for cpython-399: run make install"
    )


def test_a_playout_copy_deals_no_next_hand() -> None:
    """``State.deal_no_more_hands`` (the search's playouts): when the hand ends the game
    waits for a deal instead of dealing one, on either build; so does a copy given a
    dealer of the hand's reshuffles only (``Dealer(hands=False)``)."""
    cls = get_game("dominoes")
    rng = random.Random(1)
    state = cls.new(2, seed=4)
    hand = state.hand_no
    copy = state.clone(rng=Dealer(rng=rng, hands=False))
    state.deal_no_more_hands()
    for game in (state, copy):
        while game.hand_no == hand and game.to_act:
            game.apply(rng.choice(game.legal_actions()))
        assert game.hand_no == hand and game.awaiting_deal and not game.to_act
