"""Engines and migrations.

The server talks to the database through :class:`taverna.store.repo.Store`,
which runs plain (sync) SQLAlchemy in worker threads; SQLite gets a single
writer thread, which is how SQLite likes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).parent / "migrations"

#: what the database raises when it is away (stopped, unreachable, locked, out of
#: connections) rather than refusing what was asked: worth waiting for, not a bug
DATABASE_AWAY = (OperationalError, InterfaceError, PoolTimeout, DisconnectionError)
DEFAULT_URL = "sqlite:///taverna.db"


def normalize_url(url: str) -> str:
    """SQLite through sqlite3; PostgreSQL through psycopg 3 (``postgresql://`` accepted)."""
    u = make_url(url)
    if u.drivername.startswith("sqlite"):
        u = u.set(drivername="sqlite")
    elif u.drivername.startswith("postgres"):
        u = u.set(drivername="postgresql+psycopg")
    else:
        raise ValueError(f"unsupported database {u.drivername!r}: use sqlite:// or postgresql://")
    return u.render_as_string(hide_password=False)


def display_url(url: str) -> str:
    """The URL to show people: any password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def check_database(url: str, timeout: int = 5) -> str | None:
    """Why the database at ``url`` cannot be used, in one line; ``None`` when it answers.

    Connects once (PostgreSQL waits at most ``timeout`` seconds) and asks it a
    trivial query, so a server can refuse to start with a clear reason instead
    of failing in the middle of its start-up.

    >>> check_database("bogus://x")
    "unsupported database 'bogus': use sqlite:// or postgresql://"
    """
    try:
        u = make_url(url)
    except ArgumentError:
        return f"{url!r} is not a database URL: write sqlite:///PATH or postgresql://USER@HOST/NAME"
    try:
        normalize_url(url)
    except ValueError as e:
        return str(e)
    if u.drivername.startswith("sqlite"):
        path = u.database or ""
        if path and path != ":memory:" and not path.startswith("file:"):
            folder = Path(path).absolute().parent
            if not folder.is_dir():
                return f"the folder {folder} for the SQLite file does not exist"
        engine = make_engine(url)
    else:
        engine = create_engine(
            normalize_url(url), connect_args={"connect_timeout": timeout}, poolclass=NullPool
        )
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except DBAPIError as e:
        # the driver's own words, on one line ("connection refused", "database x does not exist")
        reason = " ".join(str(e.orig or e).split())
        return f"cannot connect: {reason}"
    finally:
        engine.dispose()
    return None


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers never wait for the writer; NORMAL: safe against a killed process
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True)


def migrate(url: str) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    command.upgrade(cfg, "head")
