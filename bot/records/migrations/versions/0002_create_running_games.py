"""Create the running_games table: each running game, so a board pressed after a restart is checked against it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "running_games",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False, server_default=sa.text("'3x3'")),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("x_user_id", sa.BigInteger(), nullable=True),
        sa.Column("o_user_id", sa.BigInteger(), nullable=True),
        sa.Column("bot_side", sa.String(1), nullable=True),
        sa.Column("difficulty", sa.String(16), nullable=True),
        sa.Column("algorithm", sa.String(16), nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("states_evaluated", sa.BigInteger(), nullable=False),
        sa.Column("verified", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_running_games"),
        sa.CheckConstraint("bot_side IN ('X', 'O')", name="ck_running_games_bot_side"),
        sa.CheckConstraint("mode IN ('buttons', 'text')", name="ck_running_games_mode"),
        sa.CheckConstraint("version >= 0", name="ck_running_games_version"),
        sa.CheckConstraint("states_evaluated >= 0", name="ck_running_games_states_evaluated"),
    )
    op.create_index("ix_running_games_channel_id", "running_games", ["channel_id"])


def downgrade() -> None:
    op.drop_table("running_games")
