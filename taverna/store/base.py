"""What every part of the store stands on: one database's engine, the worker threads
that run its transactions, and the group-commit writer (:mod:`.writer`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from .db import make_engine, migrate
from .writer import Writer

T = TypeVar("T")


class Database:
    """One database, brought to the newest schema unless ``run_migrations`` is False.

    Every query is a small transaction run in a worker thread (:meth:`run`); SQLite
    gets a single one, which is how SQLite likes it.
    """

    def __init__(self, url: str, *, run_migrations: bool = True) -> None:
        if run_migrations:
            migrate(url)
        self.engine = make_engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        self.pool = ThreadPoolExecutor(1 if self.sqlite else 6, thread_name_prefix="taverna-db")
        self.writer = Writer(self.engine)

    async def run(self, fn: Callable[[Session], T]) -> T:
        """``fn(session)`` in one transaction, in a worker thread; what it returns."""

        def job() -> T:
            with self.Session() as session, session.begin():
                return fn(session)

        return await asyncio.get_running_loop().run_in_executor(self.pool, job)

    def close(self) -> None:
        self.writer.close()
        self.pool.shutdown(wait=True)
        self.engine.dispose()

    async def ping(self, timeout: float = 2.0) -> bool:
        """Whether the database answers a trivial query within ``timeout`` seconds."""

        def q(s: Session) -> None:
            s.execute(select(1))

        try:
            await asyncio.wait_for(self.run(q), timeout)
        except Exception:
            return False
        return True
