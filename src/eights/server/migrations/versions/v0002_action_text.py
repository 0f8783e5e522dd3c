"""The action column holds any legal play: TEXT instead of VARCHAR(16).

A play of several cards with three decks (``2c+2d+2h+2h+2s+2s+2c``, switch)
is longer than 16 characters; PostgreSQL refused it, SQLite never checked.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:  # SQLite rebuilds the table
        batch.alter_column("action", type_=sa.Text(), existing_type=sa.String(16),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("action", type_=sa.String(16), existing_type=sa.Text(),
                           existing_nullable=False)
