"""Compile the game engines with mypyc, from the very source (taverna/native.py says why).

    .venv/bin/python scripts/build_engines.py               # compile if the source changed
    .venv/bin/python scripts/build_engines.py --background  # the same, detached
    .venv/bin/python scripts/build_engines.py --clean       # remove the compiled build

``make install`` and ``make test`` run it and wait for it; ``make serve`` runs it with
``--background`` and starts the server at once, on the pure-Python source, while the
compiled build is made beside it (its output goes to ``taverna/games/_compiled.log``);
the server's next start runs the compiled build. It does nothing when the compiled
modules match the source.

One build at a time, and never half of one in use:

* a build holds the lock ``taverna/games/_compiled.lock`` from its first look at the
  package to its end (``flock``: released by the system however it ends); another
  build waits for it (``--background``: leaves it be), then finds the work done;
* it removes the manifest and the old modules first, so that a process started
  meanwhile runs the source (``taverna.native`` says a build is being made), then
  compiles copies of the sources in a folder of its own (an edit made meanwhile cannot
  end up under the wrong digest), moves each extension module beside its source by a
  rename (a process never finds one half written), and writes the manifest last.

Without a C compiler, or when compiling fails, the package stays pure Python, as it
always works, and the script says so (exit 0: the club runs either way).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taverna import native  # noqa: E402

if sys.platform == "win32":
    sys.exit("scripts/build_engines.py: the compiled engines are built on Linux and macOS")

import fcntl  # noqa: E402

#: mypyc's name for the shared library of the compiled modules
GROUP = "taverna.games._native"

#: mypyc writes one C file per module (``multi_file``), and the C compiler runs on as many
#: of them at once as there are cores. Measured on a 2-core machine (the 21 modules):
#: one file took 63 s of gcc and 71 s in all; one file per module takes 50 s of CPU in
#: all, 33 s on two cores, with the same speed at run time (``taverna bench``, the
#: expert's decision in scripts/decision_cost.py). setuptools compiles an extension's
#: files one after the other, so the setup script runs its ``compile`` over a thread
#: pool (each thread waits on its own gcc), as numpy's build once did; a setuptools
#: without those methods compiles one after the other.
SETUP = """\
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from mypyc.build import mypycify
from setuptools import setup
from setuptools._distutils import ccompiler

GROUP = {group!r}


def compile_at_once(self, sources, output_dir=None, macros=None, include_dirs=None,
                    debug=False, extra_preargs=None, extra_postargs=None, depends=None):
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs
    )
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj):
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, objects))
    return objects


compiler = ccompiler.CCompiler
if all(hasattr(compiler, name) for name in ("_setup_compile", "_get_cc_args", "_compile")):
    compiler.compile = compile_at_once
extensions = mypycify(sys.argv.pop(1).split(","), group_name=GROUP, opt_level="3", multi_file=True)
for extension in extensions:
    # the group's headers are written beside its library, where the C files look for them
    extension.include_dirs.append(os.path.join("build", *GROUP.split(".")[:-1]))
setup(name="taverna-engines", packages=[], ext_modules=extensions)
"""

#: the end of a file's name while it is being written beside its final place
PART = ".part"


def shown(path: Path) -> str:
    """A path as the user sees it: relative to the checkout."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def take_lock(wait: bool) -> int | None:
    """The lock's descriptor, once this process holds :data:`native.LOCK`; None when
    another build holds it and ``wait`` is false."""
    fd = os.open(native.LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if not wait:
            os.close(fd)
            return None
        print(f"engines: waiting for the build under way ({holder()}) to end", flush=True)
        fcntl.flock(fd, fcntl.LOCK_EX)
    note_holder(fd)
    return fd


def note_holder(fd: int) -> None:
    """Write this process's id into the lock, for whoever waits to read."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def holder() -> str:
    """Who holds the lock, as the lock says."""
    try:
        pid = native.LOCK.read_text().strip()
    except OSError:
        pid = ""
    return f"pid {pid}, log {shown(native.BUILD_LOG)}" if pid else shown(native.BUILD_LOG)


def clean() -> None:
    """Remove the compiled build: the manifest first (a process that starts meanwhile
    then runs the source), then the modules and any file a killed build left."""
    native.MANIFEST.unlink(missing_ok=True)
    for path in native.extensions():
        path.unlink()
    for path in native.ROOT.rglob(f"*{PART}"):
        path.unlink()


def compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) or shutil.which("cc") or shutil.which("gcc")


def cannot_compile() -> str | None:
    """Why this machine cannot compile the engines, or None."""
    if compiler() is None:
        return "no C compiler on this machine"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed: pip install -e '.[engines]'"
    return None


def compile_modules(work: Path, sources: list[str]) -> subprocess.CompletedProcess[str]:
    """Run mypyc on ``sources`` (paths relative to ``work``), leaving the extension
    modules in ``work`` beside them."""
    (work / "setup.py").write_text(SETUP.format(group=GROUP))
    return subprocess.run(
        [sys.executable, "setup.py", ",".join(sources), "build_ext", "--inplace"],
        cwd=work,
        capture_output=True,
        text=True,
    )


def put(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` whole or not at all: written and flushed to disk
    beside it first, then renamed (a process that maps the old file keeps it)."""
    part = target.with_name(target.name + PART)
    shutil.copy2(source, part)
    with part.open("rb") as f:
        os.fsync(f.fileno())
    os.replace(part, target)


def write_manifest(digests: dict[str, str]) -> None:
    from mypy.version import __version__ as version  # mypyc is mypy's

    part = native.MANIFEST.with_name(native.MANIFEST.name + PART)
    part.write_text(
        json.dumps(
            {"python": sys.implementation.cache_tag, "mypyc": version, "sources": digests},
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )
    with part.open("rb") as f:
        os.fsync(f.fileno())
    os.replace(part, native.MANIFEST)


def build(verbose: bool) -> int:
    """Compile the engines unless the compiled build matches the source (the caller
    holds the lock)."""
    built = native.built_status()
    if built.build == "compiled":
        print(f"engines: {built}")
        return 0
    clean()
    why = cannot_compile()
    if why is not None:
        print(f"engines: pure Python ({why})")
        return 0
    started = time.monotonic()
    print("engines: compiling with mypyc (about a minute, once per change of an engine)")
    print(f"engines: started {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    with tempfile.TemporaryDirectory(prefix="taverna-engines-") as tmp:
        work = Path(tmp)
        digests = {}
        sources = []
        for module in native.COMPILED:
            source = native.source_path(module)
            rel = source.relative_to(ROOT)
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, work / rel)
            # the digest of what is compiled, not of the source as it may be by then
            digests[module] = hashlib.sha256((work / rel).read_bytes()).hexdigest()
            sources.append(str(rel))
        # the rest of the package as it is, for mypy to follow the imports (not compiled)
        for path in (ROOT / "taverna").rglob("*.py"):
            rel = path.relative_to(ROOT)
            if not (work / rel).exists():
                (work / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, work / rel)
        shutil.copy2(ROOT / "taverna" / "py.typed", work / "taverna" / "py.typed")
        run = compile_modules(work, sources)
        if run.returncode != 0:
            print(run.stdout[-4000:] + run.stderr[-4000:], file=sys.stderr)
            print("engines: pure Python (compiling failed, above)")
            return 0
        if verbose:
            print(run.stdout)
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        made = [p for p in (work / "taverna").rglob("*") if p.name.endswith(suffixes)]
        for path in made:
            put(path, ROOT / path.relative_to(work))
    write_manifest(digests)
    took = time.monotonic() - started
    after = native.built_status()
    print(f"engines: {after} — {len(made)} extension modules in {took:.0f} s", flush=True)
    return 0


def background() -> int:
    """Start a build detached from this process (and from the terminal: Ctrl-C on the
    server leaves it be), unless one is under way or there is nothing to do; return at
    once. The build holds the lock from here: this process takes it, and the detached
    one inherits it."""
    lock = take_lock(wait=False)
    if lock is None:
        print(f"engines: pure Python until the build under way ends ({holder()})")
        return 0
    built = native.built_status()
    if built.build == "compiled":
        print(f"engines: {built}")
        return 0
    why = cannot_compile()
    if why is not None:
        clean()
        print(f"engines: pure Python ({why})")
        return 0
    with native.BUILD_LOG.open("w") as log:
        child = subprocess.Popen(
            [sys.executable, str(Path(sys.argv[0]).resolve()), "--holding", str(lock)],
            pass_fds=(lock,),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
        )
    print(
        f"engines: compiling with mypyc in the background (pid {child.pid}, log "
        f"{shown(native.BUILD_LOG)}); the club runs the pure-Python engines meanwhile, "
        "and the compiled ones from its next start"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled build")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    parser.add_argument(
        "--background",
        action="store_true",
        help="compile in a detached process (log in taverna/games/_compiled.log) and return",
    )
    # the detached build: the lock it was handed (its descriptor)
    parser.add_argument("--holding", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.holding is not None:
        note_holder(args.holding)
        os.nice(10)  # the players of the server beside it come first
        return build(args.verbose)
    if args.background:
        return background()
    take_lock(wait=True)  # held until this process ends
    if args.clean:
        clean()
        print("engines: pure Python (compiled build removed)")
        return 0
    return build(args.verbose)


if __name__ == "__main__":
    sys.exit(main())
