"""The compiled engines made beside a running club (``make serve``): one build at a time,
never half of one in use, and every process on one build from its start to its end.

Each test works on a copy of the package (with its compiled build) and of
``scripts/build_engines.py``, driven by ``fake_build.py``: the build script itself, but
for mypyc's step, which waits for a file of the test's and then puts the real compiled
modules where mypyc would (the copy's source is this one, so they match it)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from taverna import native

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    native.built_status().build != "compiled",
    reason=f"nothing compiled here to copy: {native.built_status()}",
)

DRIVER = '''\
"""build_engines.py, with a stand-in for mypyc (tests/test_engine_background.py)."""
import os
import subprocess
import sys
import time
from pathlib import Path

import build_engines

REAL = Path(os.environ["FAKE_FROM"])


def compile_modules(work, sources):
    with open(os.environ["FAKE_CALLS"], "a") as calls:
        calls.write(f"{os.getpid()}\\n")
    go = Path(os.environ["FAKE_GO"])
    while not go.exists():
        time.sleep(0.02)
    for made in REAL.rglob("*.so"):
        target = work / "taverna" / made.relative_to(REAL)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(made.read_bytes())
    return subprocess.CompletedProcess([], 0, "", "")


build_engines.compile_modules = compile_modules

if os.environ.get("FAKE_PROBE"):
    # at each rename, and after the last: which build a process started then runs
    real_replace = os.replace

    def probe(when):
        said = subprocess.run(
            [sys.executable, "-c", os.environ["FAKE_PROBE"]],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        with open(os.environ["FAKE_TRACE"], "a") as trace:
            trace.write(f"{when}\\t{said}\\n")

    def replace(source, target):
        probe(f"{Path(source).name} -> {Path(target).name}")
        real_replace(source, target)

    os.replace = replace
    code = build_engines.main()
    probe("done")
    sys.exit(code)

sys.exit(build_engines.main())
'''

#: what a process of the copy says: the build it chose, why, and the one it runs
ASK = (
    "from taverna import native\n"
    "import taverna.games.dominoes as d\n"
    "print(native.status(), '|', native.running(), d.__file__.endswith('.py'))\n"
)


class Copy:
    """A copy of the package and of the build script, in ``folder``."""

    def __init__(self, folder: Path, web: bool = False) -> None:
        self.folder = folder
        skip = ["__pycache__", "_compiled.lock", "_compiled.log", "*.part"]
        shutil.copytree(
            native.ROOT, folder / "taverna", ignore=shutil.ignore_patterns(*skip, "web")
        )
        if web:
            shutil.copytree(native.ROOT / "web", folder / "taverna" / "web")
        (folder / "scripts").mkdir()
        shutil.copy2(ROOT / "scripts" / "build_engines.py", folder / "scripts")
        (folder / "scripts" / "fake_build.py").write_text(DRIVER)
        self.package = folder / "taverna"
        self.manifest = self.package / "games" / "_compiled.json"
        self.lock = self.package / "games" / "_compiled.lock"
        self.log = self.package / "games" / "_compiled.log"
        self.go = folder / "go"
        self.calls = folder / "calls"
        self.env = {k: v for k, v in os.environ.items() if k != native.ENV}
        self.env.update(
            PYTHONPATH=str(folder),
            FAKE_FROM=str(native.ROOT),
            FAKE_GO=str(self.go),
            FAKE_CALLS=str(self.calls),
            FAKE_TRACE=str(folder / "trace"),
        )

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        """The fake build with ``args``, to its end: what it printed."""
        done = subprocess.run(
            [sys.executable, str(self.folder / "scripts" / "fake_build.py"), *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=self.folder,
            env={**self.env, **(env or {})},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def start(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, str(self.folder / "scripts" / "fake_build.py"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=self.folder,
            env=self.env,
        )

    def ask(self, env: dict[str, str] | None = None) -> str:
        """Which build a process started now runs: ``status | running source?``."""
        done = subprocess.run(
            [sys.executable, "-c", ASK],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=self.folder,
            env={**self.env, **(env or {})},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def building(self) -> bool:
        """Whether a build holds the copy's lock (asked as ``native.building`` does)."""
        if not self.lock.exists():
            return False
        with self.lock.open() as f:
            try:
                fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
        return False

    def holder(self) -> int:
        return int(self.lock.read_text().strip() or 0)

    def compiled_modules(self) -> list[Path]:
        return sorted(self.package.rglob("*.so"))

    def remove_the_build(self) -> None:
        self.manifest.unlink()
        for path in self.compiled_modules():
            path.unlink()

    def stop(self) -> None:
        """Let a waiting fake end its build (or kill a build that does not end)."""
        self.go.touch()
        deadline = time.monotonic() + 30
        while self.building() and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.building():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(self.holder(), signal.SIGKILL)


def wait_for(condition: Callable[[], bool], what: str = "the build", within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {within} s"
        time.sleep(0.05)


@pytest.fixture
def copy(tmp_path: Path) -> Iterator[Copy]:
    made = Copy(tmp_path)
    yield made
    made.stop()


#: what a process of the copy says of its compiled build (the same as this one's)
COMPILED = str(native.built_status())


def test_a_background_build_returns_at_once_and_the_club_runs_the_source_meanwhile(
    copy: Copy,
) -> None:
    copy.remove_the_build()
    said = copy.run("--background")  # the fake waits for "go": returning proves it did not
    assert said.startswith("engines: compiling with mypyc in the background (pid "), said
    assert "log taverna/games/_compiled.log" in said
    wait_for(copy.calls.exists, "the fake compiler")
    assert copy.building()
    assert copy.ask() == f"python ({native.BEING_MADE}) | python True"
    assert copy.ask({native.ENV: "python"}) == f"python ({native.BEING_MADE}) | python True"
    copy.go.touch()
    wait_for(lambda: not copy.building())
    assert copy.ask() == f"{COMPILED} | compiled False"
    assert copy.ask({native.ENV: "python"}) == "python (TAVERNA_ENGINES=python) | python True"
    log = copy.log.read_text()
    assert "engines: compiling with mypyc" in log
    assert f"engines: {COMPILED} — {len(copy.compiled_modules())} extension modules in " in log


def test_two_builds_never_race(copy: Copy) -> None:
    copy.remove_the_build()
    copy.run("--background")
    wait_for(copy.calls.exists, "the fake compiler")
    # another make serve: leaves the build under way be
    said = copy.run("--background")
    assert said.startswith("engines: pure Python until the build under way ends (pid ")
    # make install: waits for it, then finds the work done
    waiting = copy.start()
    assert waiting.stdout is not None
    first = waiting.stdout.readline()
    assert first.startswith("engines: waiting for the build under way (pid "), first
    assert waiting.poll() is None
    copy.go.touch()
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert out.strip() == f"engines: {COMPILED}"
    assert len(copy.calls.read_text().split()) == 1  # compiled once, by the first
    assert copy.ask() == f"{COMPILED} | compiled False"


def test_a_build_killed_half_way_leaves_the_source_running_and_the_next_one_builds(
    copy: Copy,
) -> None:
    # a stale build: the new one removes it first
    source = copy.package / "games" / "record.py"
    source.write_text(source.read_text() + "\n")
    copy.run("--background")
    wait_for(copy.calls.exists, "the fake compiler")
    builder = int(copy.calls.read_text())
    wait_for(lambda: copy.holder() == builder, "the builder's id in the lock")
    assert copy.compiled_modules() == [] and not copy.manifest.exists()
    os.kill(builder, signal.SIGKILL)
    wait_for(lambda: not copy.building(), "the lock's release")
    assert copy.ask() == (
        "python (not compiled: make install compiles when a C compiler is there) | python True"
    )
    copy.go.touch()
    assert (
        copy.run()
        .splitlines()[-1]
        .startswith(f"engines: {COMPILED} — {len(native.extensions())} extension")
    )
    assert copy.ask() == f"{COMPILED} | compiled False"


def test_a_process_started_at_any_moment_of_a_build_runs_one_build_whole(copy: Copy) -> None:
    """Each module moves beside its source by a rename from a file written whole beside
    it, and the manifest last: a process started before that runs the source only."""
    copy.remove_the_build()
    copy.go.touch()
    copy.run(env={"FAKE_PROBE": ASK})
    steps = [line.split("\t") for line in (copy.folder / "trace").read_text().splitlines()]
    moved = [when for when, _ in steps[:-1]]
    assert len(moved) == len(copy.compiled_modules()) + 1
    for when in moved:
        part, target = when.split(" -> ")
        assert part == target + ".part"
    assert moved[-1] == "_compiled.json.part -> _compiled.json"
    # until the manifest is in place: the source, because a build is under way
    assert {said for _, said in steps[:-1]} == {f"python ({native.BEING_MADE}) | python True"}
    assert steps[-1] == ["done", f"{COMPILED} | compiled False"]


def test_a_process_on_the_source_never_takes_a_module_compiled_after_it_started(
    copy: Copy,
) -> None:
    """Nothing was compiled when it started; a build ends (the modules and manifest
    appear); the engine it imports afterwards is still the source."""
    kept = copy.folder / "kept"
    shutil.copytree(copy.package, kept, ignore=shutil.ignore_patterns("*.py", "web"))
    copy.remove_the_build()
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from taverna import native\n"
            "print(native.status(), flush=True)\n"
            "input()\n" + ASK.split("\n", 1)[1],
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=copy.folder,
        env=copy.env,
    )
    assert process.stdout is not None and process.stdin is not None
    assert process.stdout.readline().startswith("python (not compiled")
    shutil.copytree(kept, copy.package, dirs_exist_ok=True)
    assert copy.ask() == f"{COMPILED} | compiled False"  # a new process takes them
    out, err = process.communicate("\n", timeout=60)
    assert process.returncode == 0, err
    assert out.strip().endswith("| python True"), out


@pytest.mark.parametrize(("passed", "child"), [(True, "python"), (False, "compiled")])
def test_a_server_on_the_source_hands_it_to_the_processes_it_starts(
    copy: Copy, passed: bool, child: str
) -> None:
    """A build ends while a process runs the source: the bots' processes it starts
    afterwards (multiprocessing's spawn: they choose again) run the source too, once it
    has passed its choice on (as ``taverna serve`` and ``taverna worker`` do)."""
    script = copy.folder / "parent.py"
    script.write_text(
        "import fcntl, multiprocessing\n"
        "from pathlib import Path\n"
        "if __name__ == '__main__':  # not again in the child\n"
        "    games = Path('taverna/games')\n"
        "    lock = open(games / '_compiled.lock', 'w')\n"
        "    fcntl.flock(lock, fcntl.LOCK_EX)  # a build under way\n"
        "    manifest = (games / '_compiled.json').read_text()\n"
        "    (games / '_compiled.json').unlink()\n"
        "    from taverna import native\n"
        "    print(native.status())\n"
        f"    if {passed}:\n"
        "        native.pass_to_children()\n"
        "    (games / '_compiled.json').write_text(manifest)  # the build ends\n"
        "    lock.close()\n"
        "    with multiprocessing.get_context('spawn').Pool(1) as pool:\n"
        "        print(pool.apply(native.running), native.running())\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=copy.folder,
        env=copy.env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"python ({native.BEING_MADE})", f"{child} python"]


def _server_log(copy: Copy, env: dict[str, str] | None = None) -> list[str]:
    """Start ``taverna serve`` on the copy until it is ready, stop it: its log lines."""
    log = copy.folder / "server.log"
    with log.open("w") as err:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taverna",
                "serve",
                "--port",
                "0",
                "--database",
                f"sqlite:///{copy.folder}/club.db",
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            cwd=copy.folder,
            env={**copy.env, **(env or {})},
        )
        try:
            wait_for(lambda: "ready:" in log.read_text() or server.poll() is not None, "ready")
        finally:
            server.terminate()
            server.wait(timeout=30)
    return log.read_text().splitlines()


def _engines_line(lines: list[str]) -> str:
    said = [line.split(" taverna.server: ", 1)[1] for line in lines if "engines:" in line]
    assert len(said) == 1, lines
    return said[0]


def test_the_server_says_which_build_it_runs(tmp_path: Path) -> None:
    copy = Copy(tmp_path, web=True)
    try:
        assert _engines_line(_server_log(copy)) == f"engines: {COMPILED}"
        assert _engines_line(_server_log(copy, {native.ENV: "python"})) == (
            "engines: pure Python (TAVERNA_ENGINES=python)"
        )
        copy.remove_the_build()
        copy.run("--background")
        wait_for(copy.calls.exists, "the fake compiler")
        assert _engines_line(_server_log(copy)) == f"engines: pure Python ({native.BEING_MADE})"
        copy.go.touch()
        wait_for(lambda: not copy.building())
        assert _engines_line(_server_log(copy)) == f"engines: {COMPILED}"
    finally:
        copy.stop()


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_make_serve_serves_at_once_and_make_install_still_compiles_first(tmp_path: Path) -> None:
    """``make -n``: what make would run, with an installed .venv of the test's."""
    venv = tmp_path / "venv"
    venv.mkdir()
    for stamp in ("pyvenv.cfg", ".installed", ".installed-serve"):
        (venv / stamp).touch()

    # run as a make of its own: under `make test` the inherited MAKELEVEL would have it
    # print "Entering directory" lines among the commands
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}

    def would(target: str) -> list[str]:
        done = subprocess.run(
            ["make", "-n", target, f"VENV={venv}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    assert would("serve") == [
        f"{venv}/bin/python scripts/build_engines.py --background",
        f"{venv}/bin/taverna serve --host 127.0.0.1 --port 8000",
    ]
    assert would("install") == [f"{venv}/bin/python scripts/build_engines.py"]
    (venv / ".installed-serve").unlink()
    (venv / ".installed").unlink()
    assert would("serve")[0] == f"{venv}/bin/pip install -q -e '.[engines]'"
