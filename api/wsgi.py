"""WSGI entry point for production servers: ``gunicorn -c python:robotcore_api.gunicorn_conf``
(or any WSGI server: ``robotcore_api.wsgi:app``). The database comes from ``ROBOTCORE_DATABASE_URL``
(default: the SQLite file ``robotcore.db`` in the working directory)."""

from __future__ import annotations

from .app import create_app

app = create_app()
