"""Create the games table and the indexes behind the stats, leaderboard and channel-history queries.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
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
    )
    op.create_index("ix_games_x_user_id", "games", ["x_user_id"])
    op.create_index("ix_games_o_user_id", "games", ["o_user_id"])
    op.create_index("ix_games_guild_id", "games", ["guild_id"])
    op.create_index("ix_games_channel_id_ended_at", "games", ["channel_id", "ended_at"])


def downgrade() -> None:
    op.drop_table("games")
