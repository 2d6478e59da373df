"""What the whole run has to say at its end, and how its tests share the workers.

`make test` runs the tests on several processes (pytest-xdist, ``--dist loadgroup``):
a test whose module starts something for all its tests (a server, a browser: a
fixture of module scope) goes to the same worker as the rest of that module and
parameter, so it is started once; every other test goes wherever a worker is free.
The longest work units (a group, or a test on its own) are handed out first, so that
none of them starts last and alone: their times, as measured, are kept in
``tests/durations.json`` (``make durations`` measures them again); a test not there counts
as the slow marker says.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from taverna import native

from . import forkserver
from .browser_helpers import SPENT


def pytest_report_header() -> str:
    """Which build of the engines the tests run (taverna/native.py), and why."""
    return f"taverna engines: {native.status()}"


def _group(item: pytest.Item) -> str | None:
    """The worker group of a test: its module and the parameters of the module-scoped
    fixtures of ours it uses (a server each), or None when it shares nothing."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    shared = sorted(
        name
        for name, defs in info.name2fixturedefs.items()
        if defs
        and defs[-1].scope != "function"
        and getattr(defs[-1].func, "__module__", "").startswith("tests.")
    )
    if not shared:
        return None
    callspec = getattr(item, "callspec", None)
    params = [str(callspec.params[n]) for n in shared if callspec and n in callspec.params]
    return "-".join([item.nodeid.split("::")[0], *params])


DURATIONS = Path(__file__).with_name("durations.json")
# what a test not measured yet counts for, in seconds: a slow one (marked) or another
UNMEASURED = {"slow": 30.0, "browser": 8.0, "other": 1.0}


def _unmeasured(item: pytest.Item) -> float:
    if item.get_closest_marker("slow"):
        return UNMEASURED["slow"]
    if item.get_closest_marker("browser"):
        return UNMEASURED["browser"]
    return UNMEASURED["other"]


def _measured() -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(DURATIONS.read_text()).items()}
    except (OSError, ValueError):
        return {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="write the time each test took (setup, call and teardown) to tests/durations.json",
    )


def _test_id(nodeid: str) -> str:
    """A test's id without the ``@group`` xdist adds to it (``--dist loadgroup``)."""
    return nodeid[: nodeid.rfind("@")] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist: each test's group, and the work units longest first (by the times
    measured), each group's tests in their order. Every worker sorts alike, as xdist
    requires; ``--no-loadscope-reorder`` (the Makefile's) keeps this order. First of
    the hooks: xdist's own (a plain one) reads the groups to name the work units."""
    # a worker runs with dist "no" and loadgroup set (xdist's remote.setup_config)
    if config.getoption("dist", "no") == "no" and not getattr(config.option, "loadgroup", False):
        return
    measured = _measured()
    unit: dict[str, str] = {}
    length: dict[str, float] = defaultdict(float)
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        unit[item.nodeid] = group or item.nodeid
        length[unit[item.nodeid]] += measured.get(item.nodeid, _unmeasured(item))
    first = {key: i for i, key in enumerate(dict.fromkeys(unit.values()))}
    items.sort(key=lambda item: (-length[unit[item.nodeid]], first[unit[item.nodeid]]))


def pytest_collection_finish(session: pytest.Session) -> None:
    """A worker whose groups xdist did not take (its ids carry no ``@group``) would start
    each module's server on every worker: such a run stops at once and says why."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    for item in session.items:
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid:
            raise pytest.UsageError(
                f"xdist did not group {item.nodeid}: this pytest ({pytest.__version__}) and"
                " pytest-xdist's --dist loadgroup do not work together (pyproject.toml)"
            )


SPENT_BY_TEST: dict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each test's time, setup and teardown included (on the controller under xdist)."""
    SPENT_BY_TEST[_test_id(report.nodeid)] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands the accessibility checks' figures to the controller; the controller
    (or a run on one process) stores the tests' times when asked to."""
    forkserver.FORKS.close()
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["axe"] = dict(SPENT)
    elif session.config.getoption("store_durations") and SPENT_BY_TEST:
        kept = _measured()
        kept.update({k: round(v, 2) for k, v in SPENT_BY_TEST.items()})
        DURATIONS.write_text(json.dumps(dict(sorted(kept.items())), indent=0) + "\n")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller adds up what each worker's accessibility checks took."""
    spent = getattr(node, "workeroutput", {}).get("axe")
    if spent:
        for key in SPENT:
            SPENT[key] += spent[key]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The build of the engines the tests ran (the header is quiet under ``-q``), and the
    time the accessibility checks took (tests/browser_helpers.py: assert_accessible)."""
    terminalreporter.write_line(f"taverna engines: {native.status()}")
    if SPENT["checks"]:
        terminalreporter.write_line(
            f"axe-core: {SPENT['checks']} checks, {SPENT['runs']} runs,"
            f" {SPENT['seconds']:.1f} s in all"
        )
