"""The web judge (``azul-rules serve``, with the ``web`` extra): a page where people
build the position they see at the table and ask about a move, and a JSON API that any
program can call, in every language of the catalogues (``azul_rules/text/*.po``).

* :func:`create_app` — the ASGI application (Starlette): ``uvicorn
  'azul_rules.web:create_app' --factory`` serves it as well as ``azul-rules serve``.
* :mod:`azul_rules.web.judge` — the work of each endpoint, without HTTP.
* :mod:`azul_rules.web.play` — the same for a game played at the page (``new-game``,
  ``record``).
* :mod:`azul_rules.web.errors` — RFC 9457 problem details.
* :mod:`azul_rules.web.openapi` — the OpenAPI 3.1 description.
* :mod:`azul_rules.web.page` — the page, written with the catalogues' words.

Everything is documented in ``docs/web.md``.

Layer: beside ``tournament`` and the reference engine, under the command line.  May
import ``testing``, the AI adapters and ``actions``, ``svg``, ``adjudication``, ``formats``
and ``core``; Starlette only here (the ``web`` extra).
"""

from __future__ import annotations

from azul_rules.web.app import BODY_TIMEOUT_SECONDS, create_app
from azul_rules.web.judge import MAX_BODY_BYTES

__all__ = ["BODY_TIMEOUT_SECONDS", "MAX_BODY_BYTES", "create_app"]
