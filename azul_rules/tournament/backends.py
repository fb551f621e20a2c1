"""Where the games are played: in this process (``local``), in a pool of worker processes
(``process``), or on a Ray cluster (``ray``).  Each backend takes batches of game
indices and yields each batch's games as it finishes (in the order batches finish);
every game depends only on its index and the settings, so every backend gives the same
games.

A batch the backend cannot play is yielded as :class:`Lost` (never silently dropped):

* ``process``: when a worker process dies (a bot calling ``os._exit``, the machine's
  out-of-memory killer...), the pool breaks and every batch then running fails with it.
  Those batches are played again in a new pool, *one at a time*, so that a second death
  names its batch; a batch that kills its worker ``1 + retries`` times is lost.
* ``ray``: Ray re-runs a task whose worker died, ``retries`` times (``max_retries``);
  after that the batch is lost.
* on every backend, a batch whose bots cannot be built there (a spec the worker cannot
  import) is lost at once, with the import error.

Lost games are not written, so a later ``--resume`` plays them again.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

from azul_rules.tournament.cluster import RayClusterError
from azul_rules.tournament.referee import GameDone, iter_games, play_batch
from azul_rules.tournament.settings import Settings, TournamentError

__all__ = ["BACKENDS", "Batch", "Lost", "cpu_count", "stream"]

BACKENDS = ("local", "process", "ray")
"""The backends :func:`~azul_rules.tournament.run` takes: this process, a pool of
processes, a Ray cluster."""

Batch = tuple[int, ...]
Outcome = tuple[Batch, "list[GameDone] | Lost"]


@attrs.frozen
class Lost:
    """Games a backend could not play, and why.

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    games: Batch
    error: str


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def stream(
    backend: str, settings: Settings, batches: Iterator[Batch], *, workers: int | None,
    retries: int, ray_address: str | None,
) -> Iterator[Outcome]:  # fmt: skip
    """Play ``batches`` on ``backend``, yielding ``(batch, games or Lost)`` as each
    batch finishes."""
    if backend == "local":
        return _local(settings, batches)
    if backend == "process":
        return _process(settings, batches, workers or cpu_count(), retries)
    return _ray(settings, batches, workers, retries, ray_address)


def _local(settings: Settings, batches: Iterator[Batch]) -> Iterator[Outcome]:
    """One game at a time, in this process (each game is its own batch for writing)."""
    for batch in batches:
        for game in iter_games(settings, batch):
            yield (game.summary.index,), [game]


_WORKER_SETTINGS: Settings | None = None


def _init_worker(settings: Settings, parent: int) -> None:
    global _WORKER_SETTINGS
    _WORKER_SETTINGS = settings
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                     name="azul-rules: exit with the parent").start()  # fmt: skip


def _exit_with_parent(parent: int) -> None:
    """End this worker once ``parent``, the process that started it, is gone (killed
    with SIGKILL, or by the out-of-memory killer: it could not stop its pool), instead
    of living on as an orphan (checked every second; ``parent`` is given by the parent
    itself, which may be gone before this worker has started)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _worker_ready() -> bool:
    return _WORKER_SETTINGS is not None


def _worker_batch(indices: Batch) -> list[GameDone]:
    assert _WORKER_SETTINGS is not None, "the pool's initializer sets the settings"
    return play_batch(_WORKER_SETTINGS, indices)


def _process(
    settings: Settings, batches: Iterator[Batch], workers: int, retries: int
) -> Iterator[Outcome]:
    """A pool of ``workers`` processes (started with ``spawn``: the same on every
    platform, and safe beside threads), at most two batches a worker in flight."""
    context = multiprocessing.get_context("spawn")

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            workers, mp_context=context, initializer=_init_worker,
            initargs=(settings, os.getpid()),
        )

    pool = new_pool()
    try:
        pool.submit(_worker_ready).result()
    except BrokenProcessPool:
        pool.shutdown(wait=True, cancel_futures=True)
        raise TournamentError(_not_started(settings)) from None
    pending: dict[Future[list[GameDone]], Batch] = {}
    suspects: deque[Batch] = deque()
    deaths: dict[Batch, int] = {}
    try:
        while True:
            isolating = bool(suspects)
            while len(pending) < (1 if isolating else 2 * workers):
                batch = suspects.popleft() if suspects else next(batches, None)
                if batch is None:
                    break
                pending[pool.submit(_worker_batch, batch)] = batch
                if isolating:
                    break
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken: list[Batch] = []
            for future in done:
                yield from _collect(future, pending.pop(future), broken)
            if not broken:
                continue
            for future in list(pending):  # a broken pool fails every other batch too
                wait([future])
                yield from _collect(future, pending.pop(future), broken)
            pool.shutdown(wait=True, cancel_futures=True)
            pool = new_pool()
            if isolating and len(broken) == 1:
                batch = broken[0]
                deaths[batch] = deaths.get(batch, 0) + 1
                if deaths[batch] > retries:
                    yield batch, Lost(batch, _died(batch, deaths[batch]))
                else:
                    suspects.appendleft(batch)
            else:
                suspects.extend(broken)
    finally:
        if pending:  # stopped early (Ctrl-C, an error): do not wait for running batches
            _terminate_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _not_started(settings: Settings) -> str:
    """Why the workers could not start: each imports the main script again (spawn), so
    a script must call ``run`` under its ``__main__`` guard; and a bot given as a
    factory object must be importable by them (specs are imported by name)."""
    text = ("the worker processes could not start (their error is above): each imports the "
            "main script again (the process backend starts them with spawn), so a script "
            "must call run(..., backend='process') under if __name__ == '__main__':")  # fmt: skip
    objects = [e.name for e in settings.entrants if not isinstance(e.source, str)]
    if objects:
        text += (f"; and a bot given as a factory object ({', '.join(objects)}) must be "
                 "importable by them: give it as a spec 'package.module:Factory' or a "
                 "module-level class or function, or use the local or ray backend")  # fmt: skip
    return text


def _terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Ask every worker process of ``pool`` to end (SIGTERM): a run that stops does not
    wait for batches no one will write (a batch of slow bots may take hours)."""
    processes = getattr(pool, "_processes", None) or {}  # CPython's, since 3.2
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()


def _collect(
    future: Future[list[GameDone]], batch: Batch, broken: list[Batch]
) -> Iterator[Outcome]:
    error = future.exception()
    if error is None:
        yield batch, future.result()
    elif isinstance(error, BrokenProcessPool):
        broken.append(batch)
    else:
        yield batch, Lost(batch, f"{type(error).__name__}: {error}")


def _died(batch: Batch, times: int) -> str:
    return (
        f"the worker process died while playing games {_span(batch)} "
        f"({times} time{'s' if times > 1 else ''}, alone in its pool)"
    )


def _span(batch: Batch) -> str:
    if len(batch) > 1 and batch == tuple(range(batch[0], batch[-1] + 1)):
        return f"{batch[0]}-{batch[-1]}"
    return ", ".join(map(str, batch))


def _ray_batch(settings: Settings, indices: Batch) -> list[GameDone]:
    return play_batch(settings, indices)


def import_ray() -> Any:
    """The ``ray`` module, or :class:`TournamentError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise TournamentError(
            "the ray backend needs Ray, the ray extra: pip install -e '.[ray]' in the "
            "project's checkout"
        ) from None
    return ray


def _token_hint(address: str | None, error: Exception) -> str:
    """What to set when Ray could not connect to an address given explicitly: Ray sends
    its token (token authentication, on by default for ``ray start --head`` since Ray
    2.5x) to such an address only with ``RAY_AUTH_MODE=token``, and says only "Failed
    to connect" when the cluster refuses it."""
    if address in (None, "auto", "local") or not isinstance(error, ConnectionError):
        return ""
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return ""
    return (" (if the cluster uses token authentication, set RAY_AUTH_MODE=token, with its "
            "token in RAY_AUTH_TOKEN or ~/.ray/auth_token)")  # fmt: skip


def _ray(
    settings: Settings, batches: Iterator[Batch], workers: int | None, retries: int,
    address: str | None,
) -> Iterator[Outcome]:  # fmt: skip
    """Ray tasks, one a batch, at most two a CPU of the cluster in flight.  Uses the
    Ray connection already made by ``ray.init`` if any; otherwise connects to
    ``address`` (``None``: a new local cluster) and disconnects at the end."""
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
        except Exception as error:  # any failure to reach a cluster is the user's to fix
            where = "a new local one" if address is None else repr(address)
            raise RayClusterError(
                f"cannot start or reach a Ray cluster at {where}: "
                f"{type(error).__name__}: {error}".splitlines()[0] + _token_hint(address, error),
                address=address, reason="ray-failed",
            ) from None
    pending: dict[Any, Batch] = {}
    try:
        remote = ray.remote(max_retries=retries)(_ray_batch)
        settings_ref = ray.put(settings)
        window = 2 * (workers or max(1, int(ray.cluster_resources().get("CPU", 1))))
        while True:
            while len(pending) < window:
                batch = next(batches, None)
                if batch is None:
                    break
                pending[remote.remote(settings_ref, batch)] = batch
            if not pending:
                return
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                batch = pending.pop(ref)
                try:
                    yield batch, ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    cause = error.cause if error.cause is not None else error
                    yield batch, Lost(batch, f"{type(cause).__name__}: {cause}")
                except ray.exceptions.RayError as error:
                    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
                    yield batch, Lost(batch, f"{type(error).__name__}: {text} "
                                             f"(games {_span(batch)})")  # fmt: skip
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
