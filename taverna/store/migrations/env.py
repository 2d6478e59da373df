"""Alembic environment: runs against the URL set by :func:`taverna.store.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool, text

from taverna.store.models import Base

config = context.config
target_metadata = Base.metadata

#: PostgreSQL advisory lock held while migrating: nodes of a cluster started together on
#: a new database migrate one after the other (the later ones find it done)
MIGRATION_LOCK = 0x7A7E4E4A


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = engine_from_config(
        config.get_section(config.config_ini_section) or {},
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # held to the commit; each statement after it sees what the previous
                # holder committed (read committed), its alembic_version too
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
