"""The OpenAPI 3 document, generated from the marshmallow schemas and the routes (flask-smorest + apispec).

The generated document is committed as ``api/openapi.json`` so that API changes show up in review;
``tests/api/test_openapi.py`` fails when the committed file and the code drift apart. Regenerate with::

    python -m robotcore_api.openapi --write api/openapi.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

PACKAGED = Path(__file__).with_name("openapi.json")


def document() -> dict[str, Any]:
    """The document as the running service serves it at /v1/openapi.json."""
    from .app import create_app
    from .service import Settings

    # no database is touched: the store connects lazily and the schema is not created
    app = create_app(settings=Settings(database_url="sqlite:///unused.db"), create_schema=False)
    with app.app_context():
        api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
        doc: dict[str, Any] = api.spec.to_dict()
    return doc


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m robotcore_api.openapi", description=__doc__.split("\n")[0])
    parser.add_argument("--write", metavar="PATH", help="write the document there (api/openapi.json)")
    parser.add_argument("--check", metavar="PATH", help="exit 1 if the document there is not up to date")
    args = parser.parse_args(argv)
    text = dumps(document())
    if args.write:
        Path(args.write).write_text(text, encoding="utf-8")
    elif args.check:
        if Path(args.check).read_text(encoding="utf-8") != text:
            print(f"{args.check} is out of date: python -m robotcore_api.openapi --write {args.check}",
                  file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
