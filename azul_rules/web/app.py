"""The HTTP face of the judge: a Starlette application, served by uvicorn.

:func:`create_app` builds the ASGI application; :func:`serve` runs it (``azul-rules
serve``).  The work of every endpoint is in :mod:`azul_rules.web.judge`; this module
only moves bytes: it refuses bodies over :data:`~azul_rules.web.judge.MAX_BODY_BYTES`
before parsing (the declared ``Content-Length`` first, then by counting the bytes as
they arrive, so that a missing or false length changes nothing), refuses bodies that are
not ``application/json``, and turns every refusal into RFC 9457 problem details.  A bug
of ours is logged with its traceback and answered with a generic 500 problem; input
never reaches that path (the tests post hostile bodies to every endpoint to keep it so).
"""

from __future__ import annotations

import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from importlib.resources import files
from typing import Any, Final

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from azul_rules import __version__, schemas
from azul_rules.serialization import long_integers
from azul_rules.web import judge, openapi
from azul_rules.web.errors import PROBLEM_MEDIA_TYPE, ApiProblem, unwritable_answer
from azul_rules.web.words import say

__all__ = ["PAGE_POLICY", "create_app", "serve"]

_LOG: Final = logging.getLogger("azul_rules.web")

PAGE_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
"""The page's Content-Security-Policy: its own script, style and API only."""

_STATIC: Final = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
_LENGTH: Final = re.compile(r"[0-9]{1,18}")

Work = Callable[[bytes, str], object]
Endpoint = Callable[[Request], Awaitable[Response]]


# -- responses -----------------------------------------------------------------------------


def _json(
    data: object,
    status: int = 200,
    media_type: str = "application/json",
    headers: Mapping[str, str] | None = None,
) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(body, status, headers=dict(headers or {}), media_type=media_type)


def _answer(data: object, lang: str) -> Response:
    """``data`` as JSON, or the 422 ``unwritable-answer`` problem naming each integer
    past 4,300 digits in it, which Python refuses to write (a score of 4,300 digits in
    the request, grown by a tiling), in the answer's language (the body's ``lang``)."""
    try:
        return _json(data)
    except ValueError:  # the only ValueError json.dumps raises on the judge's answers
        paths = [path for path, _ in long_integers(data)] or ["$"]
        said = data.get("lang") if isinstance(data, dict) else None
        raise unwritable_answer(paths, said if said in ("en", "fr") else lang) from None


def _problem(problem: ApiProblem, request: Request) -> Response:
    return _json(
        problem.document(request.url.path), problem.status, PROBLEM_MEDIA_TYPE, problem.headers
    )


def _internal_error(request: Request) -> Response:
    _LOG.exception("internal error answering %s %s", request.method, request.url.path)
    lang = _asked_language(request)
    return _problem(ApiProblem("internal-error", say("internal", lang), lang=lang), request)


def _asked_language(request: Request) -> str:
    """The language of a refusal made before the request could be read (an unknown
    address, a wrong method, a bug): ``?lang=fr`` gives French, anything else English."""
    return "fr" if request.query_params.get("lang") == "fr" else "en"


# -- reading a request ---------------------------------------------------------------------


def _check_media_type(request: Request, lang: str) -> None:
    """415 unless the body is declared JSON (``application/json`` or ``…+json``), UTF-8."""
    declared = request.headers.get("content-type", "")
    media, _, parameters = declared.partition(";")
    media = media.strip().lower()
    charset = re.search(r"charset\s*=\s*\"?([^\";\s]*)", parameters, re.IGNORECASE)
    is_json = media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )
    if is_json and (charset is None or charset.group(1).lower() in ("utf-8", "utf8")):
        return
    shown = declared[:80] if declared.isprintable() else repr(declared[:80])
    detail = say("media_type", lang, shown=shown or say("no_media_type", lang))
    raise ApiProblem("unsupported-media-type", detail, lang=lang)


def _too_large(size: str, lang: str) -> ApiProblem:
    return ApiProblem(
        "too-large",
        say("too_large", lang, size=size, limit=judge.MAX_BODY_BYTES),
        lang=lang,
        headers={"Connection": "close"},
    )


async def _body(request: Request, lang: str) -> bytes:
    """The body, refused (413) as soon as it is known to be over the limit."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not _LENGTH.fullmatch(declared.strip()):
            raise ApiProblem("unreadable-input", say("bad_length", lang), lang=lang)
        if int(declared) > judge.MAX_BODY_BYTES:
            raise _too_large(declared.strip(), lang)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > judge.MAX_BODY_BYTES:
            raise _too_large(say("more_than", lang, limit=judge.MAX_BODY_BYTES), lang)
        chunks.append(chunk)
    return b"".join(chunks)


def _post(work: Work, *, threaded: bool = False) -> Endpoint:
    """An endpoint running ``work`` on the body and the language of ``?lang=`` (in a
    worker thread when it may take a while: a whole game's replay, a picture)."""

    async def endpoint(request: Request) -> Response:
        try:
            lang = judge.query_language(request.query_params)
            _check_media_type(request, lang)
            raw = await _body(request, lang)
            result = await run_in_threadpool(work, raw, lang) if threaded else work(raw, lang)
            if isinstance(result, str):
                return Response(result, media_type="image/svg+xml")
            return _answer(result, lang)
        except ApiProblem as problem:
            return _problem(problem, request)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody is left to read it
        except Exception:
            return _internal_error(request)

    return endpoint


def _get(work: Callable[[Request], object], cache: str = "no-cache") -> Endpoint:
    async def endpoint(request: Request) -> Response:
        try:
            return _json(work(request), headers={"Cache-Control": cache})
        except ApiProblem as problem:
            return _problem(problem, request)
        except Exception:
            return _internal_error(request)

    return endpoint


# -- the routes ----------------------------------------------------------------------------


def _rules(request: Request) -> object:
    return judge.rules_document(judge.query_language(request.query_params))


def _rule(request: Request) -> object:
    lang = judge.query_language(request.query_params)
    return judge.rule_document(str(request.path_params["rule_id"]), lang)


def _schema(request: Request) -> object:
    name = str(request.path_params["name"])
    if name not in schemas.NAMES:
        lang = judge.query_language(request.query_params)
        names = ", ".join(n + ".json" for n in schemas.NAMES)
        detail = say("no_schema", lang, name=repr(name[:40]), names=names)
        raise ApiProblem("not-found", detail, lang=lang)
    return schemas.bundle(name)


def _health(_: Request) -> object:
    return {"status": "ok", "version": __version__}


def _openapi(_: Request) -> object:
    return openapi.document(__version__)


def _asset(name: str) -> bytes:
    return files("azul_rules.web").joinpath("static", name).read_bytes()


def _page_routes() -> list[Route]:
    page = _asset("index.html").replace(b"{{version}}", __version__.encode())
    assets = {name: _asset(name) for name in _STATIC}

    async def index(_: Request) -> Response:
        return Response(
            page,
            media_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-cache"},
        )

    def static(name: str) -> Endpoint:
        async def endpoint(_: Request) -> Response:
            return Response(
                assets[name], media_type=_STATIC[name], headers={"Cache-Control": "no-cache"}
            )

        return endpoint

    return [Route("/", index), *(Route(f"/static/{n}", static(n)) for n in _STATIC)]


def _api_routes() -> list[Route]:
    post = partial(Route, methods=["POST"])
    return [
        post("/api/v1/check", _post(judge.check)),
        post("/api/v1/legal-moves", _post(judge.legal_moves)),
        post("/api/v1/apply", _post(judge.apply)),
        post("/api/v1/problems", _post(judge.problems)),
        post("/api/v1/audit", _post(judge.audit)),
        post("/api/v1/audit-game", _post(judge.audit_game, threaded=True)),
        post("/api/v1/render", _post(judge.render, threaded=True)),
        post("/api/v1/replay", _post(judge.replay, threaded=True)),
        Route("/api/v1/rules", _get(_rules, "public, max-age=3600")),
        Route("/api/v1/rules/{rule_id}", _get(_rule, "public, max-age=3600")),
        Route("/api/v1/schemas/{name}.json", _get(_schema, "public, max-age=3600")),
        Route("/api/v1/openapi.json", _get(_openapi, "public, max-age=3600")),
        Route("/api/v1/health", _get(_health)),
    ]


# -- the application -----------------------------------------------------------------------


class _Headers:
    """Adds ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy`` to every
    response (a pure ASGI middleware: the body is not touched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


async def _http_error(request: Request, error: Exception) -> Response:
    """404, 405 and other refusals of the router, as problem details."""
    assert isinstance(error, HTTPException)
    slug = {404: "not-found", 405: "method-not-allowed"}.get(error.status_code)
    if slug is None:  # no other status is raised by the routes above
        return _internal_error(request)
    lang = _asked_language(request)
    if slug == "not-found":
        detail = say("no_route", lang, path=request.url.path[:200])
    else:
        allowed = (error.headers or {}).get("Allow") or say("another_method", lang)
        detail = say("bad_method", lang, method=request.method[:20], allowed=allowed)
    return _problem(ApiProblem(slug, detail, lang=lang, headers=error.headers), request)


async def _server_error(request: Request, _: Exception) -> Response:
    return _internal_error(request)


def create_app(*, allow_origins: Sequence[str] = ()) -> Starlette:
    """The web judge as an ASGI application: the page at ``/``, the API under
    ``/api/v1/``.  ``allow_origins`` lets pages of other origins call the API (CORS;
    ``["*"]`` for any)."""
    middleware = [Middleware(_Headers)]
    if allow_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(allow_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["Content-Type"],
                max_age=3600,
            )
        )
    handlers: Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: _http_error,
        Exception: _server_error,
    }
    return Starlette(
        routes=[*_page_routes(), *_api_routes()], middleware=middleware, exception_handlers=handlers
    )


# -- serving -------------------------------------------------------------------------------


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (``0``: a free port); ``OSError``
    when the address cannot be had."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def serve(
    sock: socket.socket, *, allow_origins: Sequence[str] = (), log_level: str = "info"
) -> None:
    """Serve the judge with uvicorn on a socket from :func:`bind` until interrupted
    (Ctrl+C or SIGTERM end it gracefully)."""
    config = uvicorn.Config(
        create_app(allow_origins=allow_origins),
        log_level=log_level,
        server_header=False,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=10,
        proxy_headers=True,
    )
    uvicorn.Server(config).run(sockets=[sock])
