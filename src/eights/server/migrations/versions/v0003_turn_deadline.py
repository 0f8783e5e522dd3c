"""A table keeps the deadline of its turn timer, so a restart does not give the turn anew.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("turn_deadline", sa.DateTime(timezone=True),
                                      nullable=True))
    op.add_column("tables", sa.Column("turn_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn_version")
        batch.drop_column("turn_deadline")
