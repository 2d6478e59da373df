"""Engines and migrations.

The server talks to the database through :class:`taverna.store.repo.Store`,
which runs plain (sync) SQLAlchemy in worker threads; SQLite gets a single
writer thread, which is how SQLite likes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

MIGRATIONS = Path(__file__).parent / "migrations"
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
