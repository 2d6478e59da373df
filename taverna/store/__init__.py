"""Storage: SQLAlchemy 2 models and Alembic migrations; SQLite by default, PostgreSQL by URL."""
