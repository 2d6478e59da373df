"""The package's house as its imports draw it: which module imports which, the circles,
the long files and the private names reached from another module.

    python scripts/imports.py            # the circles, long files and private reaches
    python scripts/imports.py --graph    # every arrow, one ``a -> b`` a line
    python scripts/imports.py --graph taverna.server   # the arrows out of one package

Read from the source with :mod:`ast`; nothing is imported or run. An import counts
wherever it is written (a module's top or inside a function: a function that imports
lazily still depends on what it imports), except under ``if TYPE_CHECKING:``, which
names a type and runs nothing. ``tests/test_architecture.py`` holds the package to it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "taverna"

#: the platform: the club around the games (a game's rules and a bot's search are
#: held to their own measures, in the engines' issue)
PLATFORM = ("taverna/server/", "taverna/store/", "taverna/web/static/", "taverna/cli/")
#: no platform file longer than this
MAX_LINES = 600


@dataclass
class Module:
    name: str
    path: Path
    imports: set[str] = field(default_factory=set)
    reaches: list[tuple[int, str]] = field(default_factory=list)  # (line, ``x._name``)


def modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module of the package by its dotted name."""
    found: dict[str, Module] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        found[name] = Module(name, path)
    for module in found.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        package = (
            module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
        )
        for target in _imported(tree, package):
            resolved = _resolve(target, found)
            if resolved and resolved != module.name:
                module.imports.add(resolved)
        module.reaches = list(_private_reaches(tree))
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.AST, package: str) -> Iterator[str]:
    """The dotted names a module imports (``from a import b`` gives ``a.b`` and ``a``)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                yield f"{origin}.{alias.name}"
            yield origin
        stack.extend(ast.iter_child_nodes(node))


def _resolve(target: str, found: dict[str, Module]) -> str | None:
    """The package's module a dotted import lands on (``a.b.name`` → ``a.b``)."""
    while target:
        if target in found:
            return target
        target = target.rpartition(".")[0]
    return None


def _private_reaches(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``x._name`` where ``x`` is not ``self``/``cls`` and the module defines no ``_name``
    of its own: a private name of another module's, used here."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _private(alias.name):
                    yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            yield node.lineno, f"{ast.unparse(value)}.{node.attr}"


#: the standard library's own public names that start with ``_``
PUBLIC_UNDERSCORE = {"_exit", "_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE


def circles(found: dict[str, Module]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0

    def visit(name: str) -> None:
        nonlocal counter
        index[name] = low[name] = counter
        counter += 1
        stack.append(name)
        on_stack.add(name)
        for other in sorted(found[name].imports):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.append(other)
                if other == name:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for name in sorted(found):
        if name not in index:
            visit(name)
    return sorted(groups)


def long_files(root: Path = ROOT) -> list[tuple[str, int]]:
    """Platform files over :data:`MAX_LINES` lines."""
    out = []
    for place in PLATFORM:
        paths = [root / place] if place.endswith(".py") else sorted((root / place).rglob("*"))
        for path in paths:
            if path.suffix in (".py", ".js") and path.is_file():
                lines = len(path.read_text(encoding="utf-8").splitlines())
                if lines > MAX_LINES:
                    out.append((str(path.relative_to(root)), lines))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", nargs="?", const=PACKAGE, metavar="PREFIX")
    args = parser.parse_args(argv)
    found = modules()
    if args.graph:
        for name in sorted(found):
            if name == args.graph or name.startswith(args.graph + "."):
                for other in sorted(found[name].imports):
                    print(f"{name} -> {other}")
        return 0
    groups = circles(found)
    print(f"{len(found)} modules, {sum(len(m.imports) for m in found.values())} arrows")
    print(f"circles: {len(groups)}")
    for group in groups:
        print("  " + " <-> ".join(group))
    longs = long_files()
    print(f"platform files over {MAX_LINES} lines: {len(longs)}")
    for path, lines in longs:
        print(f"  {path}: {lines}")
    reaches = [(m, line, what) for m in found.values() for line, what in m.reaches]
    print(f"private names reached from another module: {len(reaches)}")
    for m, line, what in reaches:
        print(f"  {m.path.relative_to(ROOT)}:{line}: {what}")
    return 1 if groups or longs or reaches else 0


if __name__ == "__main__":
    sys.exit(main())
