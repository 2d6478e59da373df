"""Which build of the game engines runs: compiled from the very source by mypyc, or the
pure-Python source itself.

``make install`` compiles the modules of :data:`COMPILED` with mypyc when the machine
has a C compiler (``scripts/build_engines.py``) and puts the extension modules beside
their source, with a manifest of the sources they were compiled from
(``taverna/games/_compiled.json``). The source stays the reference: the compiled build
must behave exactly the same (``scripts/engine_trace.py`` gives the same fingerprint on
both, and CI runs the rules tests on both).

When ``taverna`` is imported, :func:`choose` decides which build the process runs:

* the compiled one when its manifest matches the source byte for byte;
* the pure-Python source when ``TAVERNA_ENGINES=python`` asks for it, when nothing was
  compiled, while a build is being made (``make serve`` compiles beside the server:
  the build holds :data:`LOCK` and writes the manifest last), or when a source changed
  since it was compiled (a **stale** build is never run: an editable install whose
  engine was edited runs that edit; ``make install`` or ``make test`` compiles it
  again).

A process keeps the build it chose: one that runs the source imports every engine from
its source even where compiled modules appear later (a build that ends while it runs
is used from its next start), and a server hands its choice to the processes it starts
(:func:`pass_to_children`), so that its bots never run another build than its tables.

:func:`status` says which, and why: the server's log, ``taverna bench`` and the tests
print it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

#: the package's own folder
ROOT = Path(__file__).resolve().parent
#: what the build compiled from which source (written by scripts/build_engines.py)
MANIFEST = ROOT / "games" / "_compiled.json"
#: held by a build while it runs (scripts/build_engines.py), so that two never race and
#: a process started meanwhile knows why nothing is compiled
LOCK = ROOT / "games" / "_compiled.lock"
#: what a build made in the background said (``make serve``)
BUILD_LOG = ROOT / "games" / "_compiled.log"
#: the environment variable that forces the pure-Python build
ENV = "TAVERNA_ENGINES"

#: the line that makes a module one of :data:`COMPILED`: a module says it itself (no list
#: here names the games), in ``taverna/games``, ``taverna/bots`` or ``taverna/bench``
MARKER = "# taverna: compiled (mypyc; taverna/native.py)"


def _marked() -> tuple[str, ...]:
    """The modules whose source holds :data:`MARKER` on a line of its own."""
    found = []
    for folder in ("games", "bots", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if MARKER + "\n" in path.read_text(encoding="utf-8"):
                rel = path.relative_to(ROOT.parent).with_suffix("")
                found.append(".".join(rel.parts))
    return tuple(found)


#: the modules that are compiled: the engines (not the packages' ``__init__``, which
#: must stay importable as source), the bots' hot paths and the bench's protocol loop,
#: each marked by :data:`MARKER`
COMPILED: tuple[str, ...] = _marked()


def source_path(module: str) -> Path:
    """The source file of one of :data:`COMPILED`."""
    return ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digests(modules: Sequence[str] = COMPILED) -> dict[str, str]:
    """Each module's source digest (sha256), as the manifest keeps them."""
    return {m: hashlib.sha256(source_path(m).read_bytes()).hexdigest() for m in modules}


def extensions() -> list[Path]:
    """The compiled extension modules lying in the package (the shared library of the
    group, and one for each module)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return sorted({p for suffix in suffixes for p in ROOT.rglob(f"*{suffix}")})


def _compiled(module: str) -> bool:
    """Whether ``module``'s extension lies beside its source."""
    source = source_path(module)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


@dataclass(frozen=True)
class Status:
    """Which build runs (``compiled`` or ``python``), and why, in a few words."""

    build: str
    why: str

    def __str__(self) -> str:
        return f"{self.build} ({self.why})"

    @property
    def said(self) -> str:
        """For a log: ``compiled (…)`` or ``pure Python (…)``."""
        return f"{'compiled' if self.build == 'compiled' else 'pure Python'} ({self.why})"


#: why nothing compiled runs while a build is under way
BEING_MADE = "the compiled build is being made; it is used from the next start"


def building() -> bool:
    """Whether a build is under way: it holds :data:`LOCK` (``flock``, released by the
    system however the build ends)."""
    if sys.platform == "win32":  # no build beside a running process there
        return False
    import fcntl

    try:
        fd = os.open(LOCK, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _manifest() -> dict[str, object] | None:
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def built_status() -> Status:
    """What the files on disk allow, whatever the environment asks: ``compiled`` when a
    manifest lists every module with its source's digest and its extension is there
    (a build writes the manifest last)."""
    found = _on_disk()
    if found.build != "compiled" and building():
        return Status("python", BEING_MADE)
    return found


def _on_disk() -> Status:
    manifest = _manifest()
    if manifest is None:
        if extensions():
            return Status("python", "compiled modules without a manifest: run make install")
        return Status("python", "not compiled: make install compiles when a C compiler is there")
    if manifest.get("python") != sys.implementation.cache_tag:
        return Status("python", f"compiled for {manifest.get('python')}: run make install")
    sources = manifest.get("sources")
    now = digests()
    if not isinstance(sources, dict) or set(sources) != set(now):
        return Status("python", "the compiled modules are not these: run make install")
    changed = [m.rsplit(".", 1)[1] + ".py" for m in COMPILED if sources[m] != now[m]]
    if changed:
        return Status(
            "python", f"stale: {', '.join(changed)} changed since compiled; run make install"
        )
    missing = [m for m in COMPILED if not _compiled(m)]
    if missing:
        return Status("python", f"{missing[0]} not compiled: run make install")
    return Status("compiled", f"mypyc {manifest.get('mypyc')}, matches the source")


_chosen: Status | None = None


def status() -> Status:
    """The build this process runs (chosen once, by :func:`choose`)."""
    return _chosen if _chosen is not None else choose()


class _Source(importlib.abc.MetaPathFinder):
    """Imports each compiled module from its ``.py`` source instead (the pure build)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def choose() -> Status:
    """Decide, before any engine is imported, which build this process runs."""
    global _chosen
    if _chosen is not None:
        return _chosen
    built = built_status()
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted == "python" and built.build == "compiled":
        _chosen = Status("python", f"{ENV}=python")
    else:
        _chosen = built
    if _chosen.build == "python":
        already = [m for m in COMPILED if m in sys.modules]
        if already and extensions():  # too late to choose: say what runs
            _chosen = Status("compiled", f"{already[0]} was imported before the choice")
        else:
            # even where nothing is compiled yet: a build that ends while this process
            # runs must not slip its modules into it
            sys.meta_path.insert(0, _Source())
    return _chosen


def pass_to_children() -> None:
    """Make the processes this one starts from now on (the bots' pools, started with
    multiprocessing's spawn, which choose again) run the pure-Python build too when this
    one does: a build that ends while a server runs on the source is not used by half of
    it. (A compiled process needs nothing: a build starts only once its source changed,
    and then a process it starts runs the change, as any new one.)"""
    if status().build == "python":
        os.environ[ENV] = "python"


def running() -> str:
    """``compiled`` or ``python``, from the engine module actually loaded."""
    import taverna.games.base as base

    return "compiled" if not str(base.__file__).endswith(".py") else "python"
