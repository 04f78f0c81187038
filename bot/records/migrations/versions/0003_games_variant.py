"""Add the variant to finished games (existing rows become '3x3'), and make room for the longer games' moves.

``games.moves`` keeps a 3x3 game's cells as digits (``"4083"``, as before) and any other variant's as
comma-separated numbers (``"12,0,80"``), so it becomes ``TEXT``. On SQLite, Alembic's batch mode copies the table;
``copy_from`` gives it the table as 0001 made it, so its CHECK constraints and indexes are kept (SQLite's reflection
does not return CHECK constraints).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _games_at_0002() -> sa.Table:
    return sa.Table(
        "games",
        sa.MetaData(),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("x_user_id", sa.BigInteger(), nullable=True),
        sa.Column("o_user_id", sa.BigInteger(), nullable=True),
        sa.Column("bot_side", sa.String(1), nullable=True),
        sa.Column("difficulty", sa.String(16), nullable=True),
        sa.Column("algorithm", sa.String(16), nullable=True),
        sa.Column("moves", sa.String(9), nullable=False),
        sa.Column("result", sa.String(4), nullable=True),
        sa.Column("end_reason", sa.String(16), nullable=False),
        sa.Column("states_evaluated", sa.BigInteger(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_games"),
        sa.CheckConstraint("bot_side IN ('X', 'O')", name="ck_games_bot_side"),
        sa.CheckConstraint("difficulty IN ('easy', 'medium', 'unbeatable')", name="ck_games_difficulty"),
        sa.CheckConstraint("algorithm IN ('alpha-beta', 'minimax')", name="ck_games_algorithm"),
        sa.CheckConstraint("result IN ('X', 'O', 'draw')", name="ck_games_result"),
        sa.CheckConstraint(
            "end_reason IN ('win', 'draw', 'resigned', 'abandoned', 'declined', 'expired')",
            name="ck_games_end_reason",
        ),
        sa.CheckConstraint("states_evaluated >= 0", name="ck_games_states_evaluated"),
        sa.Index("ix_games_x_user_id", "x_user_id"),
        sa.Index("ix_games_o_user_id", "o_user_id"),
        sa.Index("ix_games_guild_id", "guild_id"),
        sa.Index("ix_games_channel_id_ended_at", "channel_id", "ended_at"),
    )


def upgrade() -> None:
    with op.batch_alter_table("games", copy_from=_games_at_0002()) as batch:
        batch.add_column(sa.Column("variant", sa.String(16), nullable=False, server_default=sa.text("'3x3'")))
        batch.alter_column("moves", existing_type=sa.String(9), type_=sa.Text(), existing_nullable=False)
    op.create_index("ix_games_variant", "games", ["variant"])


def downgrade() -> None:
    op.drop_index("ix_games_variant", "games")
    op.execute("DELETE FROM games WHERE variant <> '3x3'")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("moves", existing_type=sa.Text(), type_=sa.String(9), existing_nullable=False)
        batch.drop_column("variant")
