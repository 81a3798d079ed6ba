"""The strategy browser's web server: a Bottle app over `solver.view.browser` and the page in ``static/``.

Routes: ``/`` the page (``static/index.html``, which loads ``app.js`` and ``style.css`` from
``/static/``: no CDN, it works offline); ``/api/meta`` the files shown (``{"files": [meta, ...]}``,
one per strategy file, `StrategyView.meta`); ``/api/node/<n>`` node ``n`` in every file
(``{"files": [node, ...]}``, `StrategyView.node`; 404 with ``{"error": ...}`` past the tree).
The page is a thin view: every number it shows comes from these answers.

`bind` binds the app to a port with the standard library's WSGI server (``wsgiref``), one
request at a time, silent per request; ``serve_forever`` then serves until interrupted.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import bottle

from solver.view.browser import StrategyView, check_same_tree

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files, shipped as package data."""


def make_app(views: Sequence[StrategyView]) -> bottle.Bottle:
    """The Bottle app showing ``views`` (one file, or two of the same tree side by side)."""
    if not 1 <= len(views) <= 2:
        raise ValueError(f"the browser shows one or two strategy files, got {len(views)}")
    if len(views) == 2:
        check_same_tree(*views)
    app = bottle.Bottle()

    @app.get("/")
    def page() -> bottle.HTTPResponse:
        return bottle.static_file("index.html", root=str(STATIC))

    @app.get("/static/<name>")
    def static(name: str) -> bottle.HTTPResponse:
        return bottle.static_file(name, root=str(STATIC))

    @app.get("/api/meta")
    def meta() -> dict:
        return {"files": [view.meta() for view in views]}

    @app.get("/api/node/<node:int>")
    def node(node: int) -> dict:
        try:
            return {"files": [view.node(node) for view in views]}
        except ValueError as error:
            bottle.response.status = 404
            return {"error": str(error)}

    return app


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No line per request on stderr."""


def bind(views: Sequence[StrategyView], host: str = "127.0.0.1", port: int = 0) -> WSGIServer:
    """A WSGI server bound to ``host:port`` (0: a free port; ``server.server_port`` says which)
    serving `make_app` of ``views``; call ``serve_forever`` (and ``shutdown`` from another thread)."""
    return make_server(host, port, make_app(views), handler_class=_QuietHandler)
