"""The HTTP API against its own OpenAPI schema, with schemathesis (issue 13, item 8):
requests generated for every operation, a bounded number of each, must never get a
server error, and every answer must be what the schema says — its status, content
type and body."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .server_helpers import Person, Server, database_url

pytestmark = pytest.mark.slow

CHECKS = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
]


def test_every_operation_answers_as_its_schema_says(tmp_path: Any) -> None:
    # its command line: schemathesis's pytest plugin does not run under this pytest
    st = Path(sys.executable).parent / "schemathesis"
    if not st.exists() and shutil.which("schemathesis") is None:
        pytest.fail("schemathesis is a test dependency: make test installs it")
    srv = Server(
        database_url("sqlite", tmp_path),
        TAVERNA_REGISTER_LIMIT="100000/60",
        TAVERNA_LOGIN_LIMIT_ADDRESS="100000/60",
        TAVERNA_LOGIN_LIMIT_NAME="100000/60",
    ).start()
    try:
        person = Person(srv, "Schema")
        person.create("dominoes")  # a table for the generated calls to find or miss
        run = subprocess.run(
            [
                str(st),
                "run",
                f"{srv.http}/openapi.json",
                "--checks",
                ",".join(CHECKS),
                "--max-examples",
                "30",
                "--phases",
                "examples,coverage,fuzzing",
                "--workers",
                "1",
                "--seed",
                "1",
                "-H",
                f"Cookie: {person.cookie}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            cwd=tmp_path,  # its reports (.schemathesis/) go there
        )
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
        assert " passed" in run.stdout
    finally:
        srv.stop()
