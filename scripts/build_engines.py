"""Compile the game engines with mypyc, from the very source (taverna/native.py says why).

    .venv/bin/python scripts/build_engines.py          # compile if the source changed
    .venv/bin/python scripts/build_engines.py --clean  # remove the compiled build

``make install`` and ``make test`` run it. It does nothing when the compiled modules
match the source. Otherwise it removes them, and compiles the sources of
``taverna.native.COMPILED`` in a folder of its own (copies of the sources, so that an
edit made while it compiles cannot end up under the wrong digest) and puts the extension
modules beside their source with a manifest of the digests they were compiled from.
Without a C compiler, or when compiling fails, the package stays pure Python, as it
always works, and the script says so (exit 0: the club runs either way).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
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

#: mypyc's name for the shared library of the compiled modules
GROUP = "taverna.games._native"

SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="taverna-engines",
    packages=[],
    ext_modules=mypycify(sys.argv.pop(1).split(","), group_name={group!r}, opt_level="3"),
)
"""


def clean() -> None:
    for path in native.extensions():
        path.unlink()
    native.MANIFEST.unlink(missing_ok=True)


def compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) or shutil.which("cc") or shutil.which("gcc")


def build(verbose: bool) -> int:
    built = native.built_status()
    if built.build == "compiled":
        print(f"engines: {built}")
        return 0
    clean()
    if compiler() is None:
        print("engines: pure Python (no C compiler on this machine)")
        return 0
    if importlib.util.find_spec("mypyc") is None:
        print("engines: pure Python (mypyc is not installed: pip install -e '.[dev]')")
        return 0
    started = time.monotonic()
    print("engines: compiling with mypyc (a minute or two, once per change of an engine)")
    with tempfile.TemporaryDirectory(prefix="taverna-engines-") as tmp:
        work = Path(tmp)
        digests = native.digests()
        sources = []
        for module in native.COMPILED:
            source = native.source_path(module)
            rel = source.relative_to(ROOT)
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, work / rel)
            sources.append(str(rel))
        # the rest of the package as it is, for mypy to follow the imports (not compiled)
        for path in (ROOT / "taverna").rglob("*.py"):
            rel = path.relative_to(ROOT)
            if not (work / rel).exists():
                (work / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, work / rel)
        shutil.copy2(ROOT / "taverna" / "py.typed", work / "taverna" / "py.typed")
        (work / "setup.py").write_text(SETUP.format(group=GROUP))
        run = subprocess.run(
            [sys.executable, "setup.py", ",".join(sources), "build_ext", "--inplace"],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            print(run.stdout[-4000:] + run.stderr[-4000:], file=sys.stderr)
            print("engines: pure Python (compiling failed, above)")
            return 0
        if verbose:
            print(run.stdout)
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        copied = 0
        for path in (work / "taverna").rglob("*"):
            if path.name.endswith(suffixes):
                target = ROOT / path.relative_to(work)
                shutil.copy2(path, target)
                copied += 1
    from mypy.version import __version__ as version  # mypyc is mypy's

    native.MANIFEST.write_text(
        json.dumps(
            {
                "python": sys.implementation.cache_tag,
                "mypyc": version,
                "sources": digests,
            },
            indent=1,
            sort_keys=True,
        )
        + "\n"
    )
    took = time.monotonic() - started
    after = native.built_status()
    print(f"engines: {after} — {copied} extension modules in {took:.0f} s")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled build")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("engines: pure Python (compiled build removed)")
        return 0
    return build(args.verbose)


if __name__ == "__main__":
    sys.exit(main())
