"""robotcore_api: the REST service of robotcore (Flask + marshmallow + flask-smorest, SQLAlchemy store).

Installed from the repository's ``api/`` folder under the name ``robotcore_api``. The app factory is
``robotcore_api.app.create_app(database_url=None)``; ``robotcore_api.wsgi:app`` is the gunicorn entry point and
``robotcore_api.gunicorn_conf`` its configuration. ``robotcore_api.client`` is an example bot client that uses
only the documented HTTP endpoints (standard library only, no Flask).

Importing this package imports nothing heavy: the client must stay usable without the service's dependencies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["create_app"]


def create_app(database_url: str | None = None, **options: Any) -> Flask:
    """The Flask app (see ``robotcore_api.app.create_app``)."""
    from .app import create_app as _create_app

    return _create_app(database_url, **options)
