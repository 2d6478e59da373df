"""The server's log on stderr: readable lines by default, one JSON object a line when
asked (``taverna serve --log-format json``, ``TAVERNA_LOG_FORMAT=json``).

A line about a table carries the table (and the seat, when one is concerned) as
fields, never only in its words: :class:`TableLog` puts them there, and each format
shows them its own way::

    2025-05-01 10:00:00,123 INFO taverna.rooms: table 6f1c seat 1: left, the level 4 bot plays it
    {"time": "2025-05-01T10:00:00.123Z", "level": "INFO", "logger": "taverna.rooms",
     "message": "left, the level 4 bot plays it", "node": "main", "table": "6f1c", "seat": 1}

Every JSON line has ``time`` (UTC), ``level``, ``logger``, ``message`` and ``node``;
``exception`` when there is a traceback; uvicorn's access lines (``--access-log``) add
``client``, ``method``, ``path`` and ``status``. The standard library is enough for
this: a formatter of thirty lines, where python-json-logger would be a dependency
that still needs the same code for the table and access fields.
"""

from __future__ import annotations

import json
import logging
from collections.abc import MutableMapping
from datetime import UTC, datetime
from typing import Any

#: the formats `taverna serve` writes
LOG_FORMATS = ("text", "json")


class TableLog(logging.LoggerAdapter[logging.Logger]):
    """The lines about one table: each carries ``table``, and ``seat`` when the call
    says ``seat=N``::

        self.log.warning("could not give the seat back yet", seat=2)
    """

    def __init__(self, logger: logging.Logger, table: str) -> None:
        super().__init__(logger, {"table": table})

    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        extra = {**(self.extra or {}), **(kwargs.get("extra") or {})}
        seat = kwargs.pop("seat", None)
        if seat is not None:
            extra["seat"] = seat
        kwargs["extra"] = extra
        return msg, kwargs


def _where(record: logging.LogRecord) -> str:
    """ "table T seat S: " for a line about a table (and seat), else nothing."""
    table = getattr(record, "table", None)
    if table is None:
        return ""
    seat = getattr(record, "seat", None)
    return f"table {table}: " if seat is None else f"table {table} seat {seat}: "


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: table T seat S: message``, the table and seat from the fields."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        return (
            f"{record.asctime} {record.levelname} {record.name}: {_where(record)}{record.message}"
        )


class JsonFormatter(logging.Formatter):
    """One JSON object a line (module doc), every line naming the ``node``."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "node": self.node,
        }
        for key in ("table", "seat"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            # uvicorn's access line: client, method, path, HTTP version, status
            line["client"], line["method"], line["path"], _, line["status"] = args
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(log_format: str, node: str) -> None:
    """Every log line (Taverna's, uvicorn's, Python's warnings) to stderr in one format."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(node) if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)
