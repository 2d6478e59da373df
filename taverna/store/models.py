"""The database schema. Every change goes with an Alembic migration in ``migrations/``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    return datetime.now(UTC)


def aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC): make them comparable."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def iso(t: datetime | None) -> str | None:
    """A stored time as ISO 8601, in UTC (None: none stored)."""
    return None if t is None else aware(t).isoformat()


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A person: a guest (name only) or a registered account (username, password, chips)."""

    __tablename__ = "players"
    __table_args__ = (CheckConstraint("chips >= 0", name="ck_players_chips"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # accounts only: the username as compared (NFKC, casefolded); ``name`` shows it as typed
    username: Mapped[str | None] = mapped_column(String(40), unique=True, nullable=True)
    # guests: when their session was last used (a guest's name is theirs while they
    # are in the club: taverna.server.accounts, names in use)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    chips: Mapped[int] = mapped_column(BigInteger, default=0)
    # "moderator" for accounts an operator made moderators; None for everybody else
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # a moderator's ban (no sitting, playing nor chatting) and silence (no chatting),
    # each until a time and with its reason, told to the account
    banned_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ban_reason: Mapped[str | None] = mapped_column(String(300), nullable=True)
    silenced_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    silence_reason: Mapped[str | None] = mapped_column(String(300), nullable=True)


class NameKey(Base):
    """What a player's name looks like, to find look-alikes (``names.name_keys``: the
    hashes of its UTS #39 skeletons). Not unique: names that looked alike before they
    were refused keep their names."""

    __tablename__ = "name_keys"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)


class LoginSession(Base):
    """A browser's session cookie (only its SHA-256 is stored): a guest's or a login's."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Table(Base):
    """A table hosts one game (a match) from the lobby to its result."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # turn_seconds, public, ...
    owner_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="open")
    # The seed of every deal: never leaves the server.
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # status "set_aside": why the stored game could not be resumed (told to its players)
    problem: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # the timers as they stood when the server stopped or the database went away:
    # {"seq", "turn_left", "window_left"}, so a resumed table goes on with that time
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # several nodes (docs/scaling.md): the fencing token of the table's owner, which
    # every write of its game checks, and the owner's name
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    node: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # "play again": the table made after this one, where its players are offered a seat
    again: Mapped[str | None] = mapped_column(String(16), nullable=True)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.seat", lazy="selectin"
    )


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id"), nullable=True, index=True
    )
    player_name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # a human seat that a bot plays since the player left or stayed away too long
    replaced: Mapped[bool] = mapped_column(default=False)
    # replaced because the player left on purpose: coming back only watches (also after a
    # restart of the server)
    left: Mapped[bool] = mapped_column(default=False, server_default=false())

    table: Mapped[Table] = relationship(back_populates="seats")


class Deal(Base):
    """One deal of a table's game in record notation (docs/rules.md §4.2), stored as it is dealt.

    The first goes with the start, every later one in the transaction of the action
    that caused it; a Mus reshuffle rewrites its hand's deal in the same way. With the
    actions, the deals are the record: what a table resumes from and what a replay shows.
    """

    __tablename__ = "deals"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Signal(Base):
    """One Mus seña (docs/rules.md §3.8.4) as it was made: ``data`` is the record's signal,
    ``{"seat", "sign", "after", "caught_by"}``; ``index`` its place in ``signals``."""

    __tablename__ = "signals"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatMessage(Base):
    """One message of a table's chat: free ``text`` or a quick ``phrase`` (its key, said
    in each reader's language), or an ``event`` the table says itself ("Ana left the
    table"). ``room`` is ``players`` or ``spectators``. Not part of the game record."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    room: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str | None] = mapped_column(String(300), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    event: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatReport(Base):
    """A chat message somebody reported: kept for moderators."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"))
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    #: who reported, as the moderators count them: ``player:ID`` for an account, and
    #: ``address:DIGEST`` for a guest (guests of one address are one reporter)
    reporter_key: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Node(Base):
    """A server process of the club: its heartbeat tells the next start when it stopped."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Action(Base):
    """One applied action, committed before anybody hears of it."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChipEntry(Base):
    """One movement of chips; ``balance`` is the player's chips right after it."""

    __tablename__ = "chip_ledger"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="ck_chip_ledger_balance"),
        # a table moves a player's chips at most once per reason: settling twice is refused
        UniqueConstraint("player_id", "table_id", "reason", name="uq_chip_ledger_once"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    delta: Mapped[int] = mapped_column(BigInteger)
    balance: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(16))  # welcome, stake, win, refund
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingEntry(Base):
    """One change of a player's ranking points in one game (won, lost, abandoned, voided)."""

    __tablename__ = "rating_entries"
    __table_args__ = (
        UniqueConstraint("player_id", "table_id", "reason", name="uq_rating_entries_once"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    delta: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Rating(Base):
    """A player's standing in one game's ranking: the sum of their rating entries."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    points: Mapped[int] = mapped_column(Integer, default=0, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    abandons: Mapped[int] = mapped_column(Integer, default=0)


class Skill(Base):
    """A player's Glicko-2 rating in one game (taverna/glicko2.py) as it stands."""

    __tablename__ = "skills"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    last_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SkillEntry(Base):
    """One rated game of one player: the rating before and after it."""

    __tablename__ = "skill_entries"
    __table_args__ = (UniqueConstraint("player_id", "table_id", name="uq_skill_entries_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    rating_before: Mapped[float] = mapped_column(Float)
    rd_before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Settlement(Base):
    """An official table's end: chips and points moved once (or not at all, and why)."""

    __tablename__ = "settlements"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    ranked: Mapped[bool] = mapped_column(Boolean)
    note: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SeatAddress(Base):
    """An address a player sat or connected from at an official table (the same-IP rule)."""

    __tablename__ = "seat_addresses"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Tournament(Base):
    """A tournament of one game (taverna/server/tournaments.py)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(80))
    format: Mapped[str] = mapped_column(String(16))  # swiss, knockout
    rounds: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    stake: Mapped[int | None] = mapped_column(Integer, nullable=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # upcoming, running, finished, cancelled
    status: Mapped[str] = mapped_column(String(16), index=True, default="upcoming")
    round: Mapped[int] = mapped_column(Integer, default=0)  # the round under way (0: none yet)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    note: Mapped[str | None] = mapped_column(String(200), nullable=True)


class TournamentEntry(Base):
    """One player, or a pair (Mus), signed up for a tournament."""

    __tablename__ = "tournament_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    partner_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # a pair plays once the partner has signed up naming the first player too
    confirmed: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TournamentGame(Base):
    """One pairing of a round: ``sides`` the entry ids side by side, ``table_id`` its
    table (None: a bye), ``points`` what each entry took once decided, and ``how``
    (played, bye, forfeit)."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    sides: Mapped[list[int]] = mapped_column(JSON)
    points: Mapped[dict[str, float] | None] = mapped_column(JSON, nullable=True)
    how: Mapped[str | None] = mapped_column(String(16), nullable=True)


class ModerationEntry(Base):
    """One moderator's action (ban, silence, lift, grant...), or one refused to a
    non-moderator (``allowed`` false), with who and why."""

    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    moderator_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    action: Mapped[str] = mapped_column(String(32))
    target_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reason: Mapped[str | None] = mapped_column(String(300), nullable=True)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    allowed: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class GameReview(Base):
    """The strong bot's review of one seat's decisions in a finished game
    (:mod:`taverna.bots.review`): ``queued``, ``running`` (``done`` of ``total``
    decisions), ``done`` (``result``) or ``failed`` (``error``). Computed in the
    background, once per seat; ``updated_at`` tells a review a stopped node left."""

    __tablename__ = "game_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    asked_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    #: how many times a node took it up: a node takes it only from the count it read
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
