"""What the whole run has to say at its end, and how its tests share the workers.

`make test` runs the tests on several processes (pytest-xdist, ``--dist loadgroup``):
a test whose module starts something for all its tests (a server, a browser: a
fixture of module scope) goes to the same worker as the rest of that module and
parameter, so it is started once; every other test goes wherever a worker is free.
The slow tests are handed out first, so that none of them starts last and alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from taverna import native

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


def _rank(item: pytest.Item) -> int:
    """The slow tests first, then those of the browser, then the rest."""
    if item.get_closest_marker("slow"):
        return 0
    if item.get_closest_marker("browser"):
        return 1
    return 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist: each test's group (module docstring), and the modules with slow tests
    first, each module's tests in their order. Every worker sorts alike, as xdist requires."""
    if not config.pluginmanager.hasplugin("xdist") or config.getoption("dist", "no") == "no":
        return
    rank: dict[str, int] = {}
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        module = item.nodeid.split("::")[0]
        rank[module] = min(rank.get(module, 2), _rank(item))
    items.sort(key=lambda item: rank[item.nodeid.split("::")[0]])


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands the accessibility checks' figures to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["axe"] = dict(SPENT)


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
