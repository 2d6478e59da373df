"""The house as its imports draw it (``python scripts/imports.py`` prints it): no import
circle anywhere in the package, no platform file over 600 lines, and no private name of
one module used in another, outside the Mus engine's phases (they share the state's
private fields until the engines' contract gives them public steps)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _imports() -> ModuleType:
    path = ROOT / "scripts" / "imports.py"
    spec = importlib.util.spec_from_file_location("taverna_imports", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_no_import_circle() -> None:
    imports = _imports()
    assert imports.circles(imports.modules()) == []


def test_a_circle_is_found() -> None:
    imports = _imports()
    found = imports.modules()
    found["taverna.games.base"].imports.add("taverna.server.app")  # a lower layer reaching up
    assert any("taverna.games.base" in group for group in imports.circles(found))


def test_no_platform_file_over_600_lines() -> None:
    assert _imports().long_files() == []


def test_no_private_name_used_from_another_module() -> None:
    imports = _imports()
    reaches = [
        f"{m.path.relative_to(ROOT)}:{line}: {what}"
        for m in imports.modules().values()
        for line, what in m.reaches
        if not m.name.startswith("taverna.games.mus.")
    ]
    assert reaches == []
