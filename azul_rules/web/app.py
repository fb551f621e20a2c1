"""The HTTP face of the judge: a Starlette application, served by uvicorn.

:func:`create_app` builds the ASGI application; :func:`serve` runs it (``azul-rules
serve``).  The work of every endpoint is in :mod:`azul_rules.web.judge`; this module
only moves bytes: it refuses bodies over :data:`~azul_rules.web.judge.MAX_BODY_BYTES`
before parsing (the declared ``Content-Length`` first, then by counting the bytes as
they arrive, so that a missing or false length changes nothing), refuses bodies that are
not ``application/json`` (or sent compressed), gives a body at most
:data:`BODY_TIMEOUT_SECONDS` to arrive (a client sending a byte a second is answered
408, not waited for), and turns every refusal into RFC 9457 problem details.  A bug
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
from math import inf
from typing import Any, Final

from azul_rules.core._extras import extra

with extra("web", "azul_rules.web"):
    import anyio
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

from azul_rules import __version__
from azul_rules.core.messages import LANGUAGES
from azul_rules.core.shown import shown
from azul_rules.formats import schemas
from azul_rules.formats.serialization import long_integers
from azul_rules.web import asking, judge, openapi, play, scorekeeper
from azul_rules.web.errors import PROBLEM_MEDIA_TYPE, ApiProblem, unreadable, unwritable_answer
from azul_rules.web.page import render
from azul_rules.web.words import say

__all__ = ["BODY_TIMEOUT_SECONDS", "PAGE_POLICY", "SVG_POLICY", "create_app", "serve"]

_LOG: Final = logging.getLogger("azul_rules.web")

PAGE_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
"""The page's Content-Security-Policy: its own script, style and API only."""

SVG_POLICY: Final = "default-src 'none'; frame-ancestors 'none'"
"""The Content-Security-Policy of every SVG served (``render``'s pictures, the icon):
opened on their own, they may fetch and run nothing."""

BODY_TIMEOUT_SECONDS: Final = 10.0
"""The most time a request's body may take to arrive, once its headers have: 256 KiB in
10 s is 26 KB/s, and a position (2 KB) or a whole game's record (a few KB) takes far
less on any network.  A slower body is answered 408 and its connection closed, so that
a client trickling bytes cannot hold a request open (nor delay a graceful stop)."""

GRACEFUL_STOP_SECONDS: Final = 15
"""How long a stop (SIGTERM, Ctrl+C) waits for the requests under way: more than a body
may take to arrive plus the longest work (a replay, under a second)."""

_MAX_INSTANCE: Final = 200
"""The longest request path repeated as a problem's ``instance`` (a longer one is left
out, rather than echoing a 100 KB address)."""

_STATIC: Final = {
    "dom.js": "text/javascript; charset=utf-8",
    "glyphs.js": "text/javascript; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "ask.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "scorekeeper.js": "text/javascript; charset=utf-8",
    "scorekeeper.css": "text/css; charset=utf-8",
    "play.css": "text/css; charset=utf-8",
    "table.js": "text/javascript; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
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
    """``data`` as JSON; ``Cache-Control: no-store`` unless ``headers`` say otherwise (an
    answer depends on the request's body alone: nothing to keep)."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    sent = {"Cache-Control": "no-store", **(headers or {})}
    return Response(body, status, headers=sent, media_type=media_type)


def _answer(data: object, lang: str) -> Response:
    """``data`` as JSON, or the 422 ``unwritable-answer`` problem naming each integer
    past 4,300 digits in it, which Python refuses to write (a score of 4,300 digits in
    the request, grown by a tiling), in the answer's language (the body's ``lang``)."""
    try:
        return _json(data)
    except ValueError:  # the only ValueError json.dumps raises on the judge's answers
        paths = [path for path, _ in long_integers(data)] or ["$"]
        said = data.get("lang") if isinstance(data, dict) else None
        raise unwritable_answer(paths, said if said in LANGUAGES else lang) from None


def _problem(problem: ApiProblem, request: Request) -> Response:
    path = request.url.path
    instance = path if len(path) <= _MAX_INSTANCE else None
    return _json(problem.document(instance), problem.status, PROBLEM_MEDIA_TYPE, problem.headers)


def _internal_error(request: Request) -> Response:
    _LOG.exception("internal error answering %s %s", request.method, request.url.path)
    lang = _asked_language(request)
    return _problem(ApiProblem("internal-error", say("internal", lang), lang=lang), request)


def _asked_language(request: Request) -> str:
    """The language of a refusal made before the request could be read (an unknown
    address, a wrong method, a bug): ``?lang=fr`` gives French (any language of the
    catalogues, given once), anything else English."""
    asked = request.query_params.getlist("lang")
    return asked[0] if len(asked) == 1 and asked[0] in LANGUAGES else "en"


def _query_language(request: Request) -> str:
    """The language of ``?lang=`` (``"en"`` when absent); a 400 in English for a value
    other than ``en`` or ``fr``, or for ``lang`` given twice (which was meant is
    unknown, as for a member of the body given twice)."""
    if len(request.query_params.getlist("lang")) > 1:
        problem = say("given_twice", "en")
        raise unreadable([{"path": "?lang", "problem": problem}], "en")
    return judge.query_language(request.query_params)


# -- reading a request ---------------------------------------------------------------------


def _check_media_type(request: Request, lang: str) -> None:
    """415 unless the body is declared once as JSON (``application/json`` or
    ``application/…+json``), in UTF-8 (no ``charset`` or one ``charset=utf-8``), and is
    sent as it is (see :func:`_check_content_coding`)."""
    declared = request.headers.getlist("content-type")
    if len(declared) > 1:
        detail = say("media_type_twice", lang, count=len(declared))
        raise ApiProblem("unsupported-media-type", detail, lang=lang)
    text = declared[0] if declared else ""
    media, _, parameters = text.partition(";")
    if not (_is_json(media.strip().lower()) and _is_utf8(parameters)):
        shown = _shown_header(text) or say("no_media_type", lang)
        raise ApiProblem("unsupported-media-type", say("media_type", lang, shown=shown), lang=lang)
    _check_content_coding(request, lang)


def _check_content_coding(request: Request, lang: str) -> None:
    """415 (with ``Accept-Encoding: identity``, RFC 9110) for a body sent compressed:
    any ``Content-Encoding`` but ``identity`` (the judge reads bodies as they come)."""
    declared = ", ".join(request.headers.getlist("content-encoding"))
    codings = {coding.strip().lower() for coding in declared.split(",")} - {"", "identity"}
    if codings:
        raise ApiProblem(
            "unsupported-media-type",
            say("content_encoding", lang, shown=_shown_header(declared)),
            lang=lang,
            headers={"Accept-Encoding": "identity"},
        )


def _is_json(media: str) -> bool:
    """``application/json`` or a structured ``application/<name>+json``."""
    if media == "application/json":
        return True
    subtype = media.removeprefix("application/")
    return subtype != media and subtype.endswith("+json") and len(subtype) > len("+json")


def _is_utf8(parameters: str) -> bool:
    """True when the media type's parameters name no charset, or UTF-8 once."""
    charsets = []
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            charsets.append(value.strip().strip('"').lower())
    return not charsets or (len(charsets) == 1 and charsets[0] in ("utf-8", "utf8"))


def _shown_header(text: str) -> str:
    """A header's value as a refusal quotes it: cut to 80 characters, escaped when it
    holds characters that cannot be printed."""
    return text[:80] if text.isprintable() else repr(text[:80])


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


async def _body_in_time(request: Request, lang: str, seconds: float) -> bytes:
    """The body, refused (408, the connection closed) when it has not all arrived
    ``seconds`` after the request's headers."""
    with anyio.move_on_after(seconds):
        return await _body(request, lang)
    raise ApiProblem(
        "request-timeout",
        say("body_timeout", lang, seconds=seconds),
        lang=lang,
        headers={"Connection": "close"},
    )


def _post(work: Work, body_timeout: float, *, threaded: bool = False) -> Endpoint:
    """An endpoint running ``work`` on the body and the language of ``?lang=`` (in a
    worker thread when it may take a while: a whole game's replay, a picture)."""

    async def endpoint(request: Request) -> Response:
        try:
            lang = _query_language(request)
            _check_media_type(request, lang)
            raw = await _body_in_time(request, lang, body_timeout)
            result = await run_in_threadpool(work, raw, lang) if threaded else work(raw, lang)
            if isinstance(result, str):
                return _svg(result)
            return _answer(result, lang)
        except ApiProblem as problem:
            return _problem(problem, request)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody is left to read it
        except Exception:
            return _internal_error(request)

    return endpoint


def _svg(picture: str) -> Response:
    return Response(
        picture,
        media_type="image/svg+xml",
        headers={"Content-Security-Policy": SVG_POLICY, "Cache-Control": "no-store"},
    )


def _get(work: Callable[[Request, str], object], cache: str = "no-cache") -> Endpoint:
    """A ``GET`` endpoint answering ``work(request, lang)`` as JSON; ``?lang=`` is read
    first, as by every endpoint (a 400 for a wrong one, even where nothing is worded:
    docs/web.md)."""

    async def endpoint(request: Request) -> Response:
        try:
            lang = _query_language(request)
            return _json(work(request, lang), headers={"Cache-Control": cache})
        except ApiProblem as problem:
            return _problem(problem, request)
        except Exception:
            return _internal_error(request)

    return endpoint


# -- the routes ----------------------------------------------------------------------------


def _rules(_: Request, lang: str) -> object:
    return judge.rules_document(lang)


def _rule(request: Request, lang: str) -> object:
    return judge.rule_document(str(request.path_params["rule_id"]), lang)


def _schema(request: Request, lang: str) -> object:
    name = str(request.path_params["name"])
    if name not in schemas.NAMES:
        names = ", ".join(n + ".json" for n in schemas.NAMES)
        detail = say("no_schema", lang, name=repr(name[:40]), names=names)
        raise ApiProblem("not-found", detail, lang=lang)
    return schemas.bundle(name)


def _ask(request: Request, lang: str) -> object:
    return asking.ask_document(request.query_params.getlist("q"), lang)


def _health(_: Request, __: str) -> object:
    return {"status": "ok", "version": __version__}


def _openapi(_: Request, __: str) -> object:
    return openapi.document(__version__)


def _asset(name: str) -> bytes:
    return files("azul_rules.web").joinpath("static", name).read_bytes()


def _page_routes() -> list[Route]:
    page = render(_asset("index.html").decode(), __version__)
    assets = {name: _asset(name) for name in _STATIC}

    async def index(_: Request) -> Response:
        return Response(
            page,
            media_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-cache"},
        )

    def static(name: str) -> Endpoint:
        headers = {"Cache-Control": "no-cache"}
        if name.endswith(".svg"):
            headers["Content-Security-Policy"] = SVG_POLICY

        async def endpoint(_: Request) -> Response:
            return Response(assets[name], media_type=_STATIC[name], headers=headers)

        return endpoint

    return [Route("/", index), *(Route(f"/static/{n}", static(n)) for n in _STATIC)]


def _api_routes(body_timeout: float) -> list[Route]:
    post = partial(Route, methods=["POST"])
    posted = partial(_post, body_timeout=body_timeout)
    return [
        post("/api/v1/check", posted(judge.check)),
        post("/api/v1/legal-moves", posted(judge.legal_moves)),
        post("/api/v1/apply", posted(judge.apply)),
        post("/api/v1/bot", posted(judge.bot_move)),
        post("/api/v1/problems", posted(judge.problems)),
        post("/api/v1/position", posted(judge.position)),
        post("/api/v1/audit", posted(judge.audit)),
        post("/api/v1/audit-game", posted(judge.audit_game, threaded=True)),
        post("/api/v1/render", posted(judge.render, threaded=True)),
        post("/api/v1/replay", posted(judge.replay, threaded=True)),
        post("/api/v1/scorekeeper", posted(scorekeeper.scorekeeper, threaded=True)),
        post("/api/v1/new-game", posted(play.new_game)),
        post("/api/v1/record", posted(play.record, threaded=True)),
        Route("/api/v1/rules", _get(_rules, "public, max-age=3600")),
        Route("/api/v1/rules/{rule_id}", _get(_rule, "public, max-age=3600")),
        Route("/api/v1/schemas/{name}.json", _get(_schema, "public, max-age=3600")),
        Route("/api/v1/openapi.json", _get(_openapi, "public, max-age=3600")),
        Route("/api/v1/ask", _get(_ask, "public, max-age=3600")),
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


def _seconds(value: object) -> float:
    """``value`` as a body deadline: a positive finite number; ``ValueError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < inf:
        raise ValueError(f"body_timeout must be a positive number of seconds, not {shown(value)}")
    return float(value)


async def _server_error(request: Request, _: Exception) -> Response:
    return _internal_error(request)


def create_app(
    *, allow_origins: Sequence[str] = (), body_timeout: float = BODY_TIMEOUT_SECONDS
) -> Starlette:
    """The web judge as an ASGI application: the page at ``/``, the API under
    ``/api/v1/``.  ``allow_origins`` lets pages of other origins call the API (CORS;
    ``["*"]`` for any); ``body_timeout``: the seconds a request's body may take to
    arrive (408 past them).  An address with a trailing slash is a 404 like any other
    (no redirect: one built from the request's ``Host`` would point elsewhere, and lose
    a proxy's path prefix).

    :raises ValueError: for a ``body_timeout`` that is not a positive finite number of
        seconds."""
    body_timeout = _seconds(body_timeout)
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
    app = Starlette(
        routes=[*_page_routes(), *_api_routes(body_timeout)],
        middleware=middleware,
        exception_handlers=handlers,
    )
    app.router.redirect_slashes = False
    return app


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
        timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
        proxy_headers=True,
    )
    uvicorn.Server(config).run(sockets=[sock])
