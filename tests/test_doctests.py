"""The examples in the docstrings run, and say what they say (issue 14: the dominoes
module's own example was broken and nothing ran it)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import taverna.bots
import taverna.games
import taverna.server
import taverna.store
from taverna import native


def _modules() -> list[str]:
    """Every module of the packages, those of their subpackages too (the Mus package)."""
    names = []
    for pkg in (taverna.games, taverna.bots, taverna.server, taverna.store):
        for m in pkgutil.walk_packages(pkg.__path__, f"{pkg.__name__}."):
            if ".migrations" not in m.name:
                names.append(m.name)
    return [*names, "taverna.glicko2", "taverna.ladder", "taverna.series"]


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    skip_compiled(name)
    monkeypatch.chdir(taverna.games.__file__.rsplit("/taverna/", 1)[0])  # examples read files
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


def skip_compiled(*names: str) -> None:
    """A compiled module keeps no docstrings of its functions for doctest to find: its
    examples run on the pure-Python build (``make test-pure``, in CI too)."""
    if native.running() == "compiled" and set(names) & set(native.COMPILED):
        pytest.skip("compiled: its examples run on the pure-Python build (make test-pure)")


def test_the_libraries_have_examples() -> None:
    skip_compiled("taverna.games.base")
    counted = sum(
        doctest.testmod(importlib.import_module(n), optionflags=doctest.ELLIPSIS).attempted
        for n in ("taverna.games.base", "taverna.games.dominoes", "taverna.games.record")
    )
    assert counted >= 10
