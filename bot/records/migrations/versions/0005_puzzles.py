"""Puzzles: players' and puzzles' Glicko-2 ratings, every attempt, and the puzzles being solved.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _glicko() -> list[sa.Column[object]]:
    return [
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "puzzle_players",
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        *_glicko(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("deviation > 0", name="ck_puzzle_players_deviation"),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        *_glicko(),
        sa.CheckConstraint("deviation > 0", name="ck_puzzle_ratings_deviation"),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("attempt_id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("puzzle_id", sa.String(40), nullable=False),
        sa.Column("daily", sa.String(10), nullable=True),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_user_puzzle", "puzzle_attempts", ["user_id", "puzzle_id"])
    op.create_index("ix_puzzle_attempts_daily", "puzzle_attempts", ["guild_id", "daily", "puzzle_id"])
    op.create_table(
        "running_puzzles",
        sa.Column("run_id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("puzzle_id", sa.String(40), nullable=False),
        sa.Column("progress", sa.SmallInteger(), nullable=False),
        sa.Column("pad", sa.SmallInteger(), nullable=False),
        sa.Column("daily", sa.String(10), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("running_puzzles")
    op.drop_index("ix_puzzle_attempts_daily", "puzzle_attempts")
    op.drop_index("ix_puzzle_attempts_user_puzzle", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_players")
