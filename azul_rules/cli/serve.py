"""``azul-rules serve``: the web judge, a page and a JSON API (docs/web.md); needs the
``web`` extra (Starlette and uvicorn)."""

from __future__ import annotations

import argparse

from azul_rules.cli._common import Commands, UsageError, name
from azul_rules.core.shown import shown
from azul_rules.formats._arguments import integer

__all__ = ["NAME", "register", "run"]

NAME = "serve"


def register(commands: Commands) -> None:
    """Add ``serve`` and its options to ``commands``."""
    serve = commands.add_parser(NAME, help="the web judge: a page and a JSON API")
    serve.add_argument("--host", default="127.0.0.1", metavar="HOST",
                       help="the address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    serve.add_argument("--port", type=integer, default=8000, metavar="PORT",
                       help="the port to listen on (default 8000; 0 for a free one)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="let pages of ORIGIN call the API (CORS; repeatable; * for any)")
    serve.add_argument("--log-level", default="info",
                       choices=("critical", "error", "warning", "info", "debug"),
                       help="uvicorn's log level (default info)")


def run(args: argparse.Namespace) -> int:
    """Bind first (a taken port is one line, exit 2), then run uvicorn until stopped."""
    try:
        from azul_rules.web import app
    except ImportError as error:
        raise UsageError(f"serve needs the web extra ({error.name or error} is missing): "
                         "pip install -e '.[web]' in the project's checkout") from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {shown(args.port)}: expected 0 to 65535")
    try:
        sock = app.bind(args.host, args.port)
    except (OSError, UnicodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        where = name(args.host) or '""'
        raise UsageError(f"cannot listen on {where} port {args.port}: {reason}") from None
    host, port = sock.getsockname()[:2]
    address = f"[{host}]" if ":" in host else host
    print(f"azul-rules: the web judge is at http://{address}:{port}/ (Ctrl+C stops it)",
          flush=True)
    app.serve(sock, allow_origins=args.allow_origin, log_level=args.log_level)
    return 0
