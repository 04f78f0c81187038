"""Levels 1-8 replace the difficulty, and every player gets a rating per variant.

``games.level`` and ``running_games.level`` name the bot's level (1-8; ``NULL`` in a game between people). Rows
from before this migration get the level their difficulty maps to (easy 2, medium 5, unbeatable 8, the mapping of
:data:`bot.records.games.LEVEL_OF_DIFFICULTY`); their ``difficulty`` stays as it was, and new rows leave it empty.
``ratings`` holds one Glicko-2 rating per user, variant and pool (``'bot'``: games against the bot's levels;
``'people'``: games between people). Games finished before this migration are not rated.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_BACKFILL = "UPDATE {table} SET level = CASE difficulty WHEN 'easy' THEN 2 WHEN 'medium' THEN 5 ELSE 8 END"


def upgrade() -> None:
    for table in ("games", "running_games"):
        op.add_column(table, sa.Column("level", sa.SmallInteger(), nullable=True))
        op.execute(_BACKFILL.format(table=table) + " WHERE bot_side IS NOT NULL")
    op.create_index("ix_games_variant_level", "games", ["variant", "level"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("best_level", sa.SmallInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "variant", "pool", name="pk_ratings"),
        sa.CheckConstraint("pool IN ('bot', 'people')", name="ck_ratings_pool"),
        sa.CheckConstraint("deviation > 0", name="ck_ratings_deviation"),
        sa.CheckConstraint("games >= 0", name="ck_ratings_games"),
        sa.CheckConstraint("best_level BETWEEN 1 AND 8", name="ck_ratings_best_level"),
    )
    op.create_index("ix_ratings_variant_pool_rating", "ratings", ["variant", "pool", "rating"])


def downgrade() -> None:
    op.drop_index("ix_ratings_variant_pool_rating", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_games_variant_level", "games")
    for table in ("running_games", "games"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("level")
