"""A table keeps the rules object it was made with (house rules sent as the keys of a rules
file), and the ``meta`` its record carries besides the seats (a practice table's hints and
undos).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("house", sa.JSON(), nullable=True))
    op.add_column("tables", sa.Column("meta", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("meta")
        batch.drop_column("house")
