"""Play online: tables of people and bots over HTTP and WebSockets (``eights serve``).

The engine knows nothing of the network; this package adapts it:

- ``protocol``  the JSON messages and events (pydantic models), error codes
- ``store``     SQLAlchemy tables, seats and the append-only actions; the writer thread
- ``migrations`` Alembic revisions (``upgrade head`` runs at start-up)
- ``room``      one live table: checks, commit, apply, what each connection may see
- ``hub``       every table, creation, restoring after a restart, per-address bounds
- ``leases``    on PostgreSQL, which process runs which table (advisory locks), NOTIFY
- ``cluster``   N ``eights serve`` processes behind HAProxy (``haproxy.cfg``)
- ``limits``    sizes, rates and counts
- ``app``       the FastAPI app: :func:`create_app`
- ``web``       the browser lobby and table (``static/``: plain JS modules, SVG
  cards, no build step) and the page's words from the message catalog
"""

from eights.server.app import create_app, data_dir, default_db_url
from eights.server.limits import Limits

__all__ = ["Limits", "create_app", "data_dir", "default_db_url"]
