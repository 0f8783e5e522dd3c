"""A table keeps the address that created it, so that every server process counts the open
tables of an address (and of the server) from the database.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator", "tables", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
