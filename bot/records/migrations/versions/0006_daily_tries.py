"""Daily tries: one row per player, place (server, or 0), day and daily puzzle, so a second try cannot open.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_tries",
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("place_id", sa.BigInteger(), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.String(40), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    # the tries made before this revision (finished or running) count as today's one try
    op.execute(
        "INSERT INTO daily_tries (user_id, place_id, day, puzzle_id, started_at)"
        " SELECT user_id, place_id, day, puzzle_id, MIN(at) FROM ("
        " SELECT user_id, COALESCE(guild_id, 0) AS place_id, daily AS day, puzzle_id, finished_at AS at"
        " FROM puzzle_attempts WHERE daily IS NOT NULL"
        " UNION ALL SELECT user_id, COALESCE(guild_id, 0), daily, puzzle_id, started_at"
        " FROM running_puzzles WHERE daily IS NOT NULL"
        ") AS tries GROUP BY user_id, place_id, day, puzzle_id"
    )


def downgrade() -> None:
    op.drop_table("daily_tries")
