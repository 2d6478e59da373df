"""What `pip install .` gives is enough for every command (issue 14: `taverna bench
server` needed httpx, a test dependency): every module the package imports, at the top
of a file or inside a function, comes with its runtime dependencies."""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

PACKAGE = Path(__file__).resolve().parent.parent / "taverna"


def _imported(root: Path) -> set[str]:
    names: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"taverna", "__future__"}


def _runtime_closure(dist: str) -> set[str]:
    """Every distribution ``dist`` needs to run, without its extras."""
    seen: set[str] = set()
    todo = [dist]
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        for text in metadata.requires(name) or []:
            req = Requirement(text)
            # no extras, and only what applies to this Python
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            todo.append(req.name)
    return seen


def test_every_module_the_package_imports_is_a_runtime_dependency() -> None:
    needed = _runtime_closure("taverna")
    owners = metadata.packages_distributions()
    missing = []
    for module in sorted(_imported(PACKAGE)):
        dists = {re.sub(r"[-_.]+", "-", d).lower() for d in owners.get(module, [])}
        if not dists & needed:
            missing.append(f"{module} (from {', '.join(sorted(dists)) or 'nowhere'})")
    assert not missing, f"imported but not a runtime dependency: {missing}"
