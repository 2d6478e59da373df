"""What `pip install .` gives is enough for every command (issue 14: `taverna bench
server` needed httpx, a test dependency): every module the package imports, at the top
of a file or inside a function, comes with its runtime dependencies."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

PACKAGE = Path(__file__).resolve().parent.parent / "taverna"


#: the top-level names a package's files import, printed as JSON by a Python of its own:
#: ``ast.parse`` in a test process that has run many others can fail with "AST constructor
#: recursion depth mismatch" (CPython 3.11, python/cpython#106905), which is not this test's
IMPORTS = """
import ast, json, sys
from pathlib import Path
names = set()
for path in Path(sys.argv[1]).rglob("*.py"):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
print(json.dumps(sorted(names)))
"""


def _imported(root: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS, str(root)], capture_output=True, text=True, check=True
    )
    names = set(json.loads(done.stdout))
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
