"""The Ray backend on a real local Ray cluster (two CPUs): the same games as the local
and process backends, a batch whose worker dies reported as lost, and the cluster's
address passing the address check and serving a second driver (the command line).
Bad addresses are tested in test_tournament_ray_address.py."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.extras import needs

ray = needs("ray")

from azul_rules.tournament import check_ray_address, run  # noqa: E402

BOTS = "tests.tournament_bots"

# A real local Ray cluster per module: slow to start, and one at a time on the machine
# (pytest-xdist runs the "ray" group in one worker).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    # "local": a new cluster of our own, whatever RAY_ADDRESS or an earlier `ray start` says
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)  # fmt: skip
    try:
        yield
    finally:
        ray.shutdown()


def test_the_same_seeds_give_the_same_games_on_every_backend(
    cluster: None, tmp_path: Path
) -> None:
    bots = ["greedy", "random", f"{BOTS}:SeededBot", f"{BOTS}:IllegalBot"]
    files = {b: tmp_path / f"{b}.jsonl" for b in ("local", "process", "ray")}
    for backend, path in files.items():
        results = run(bots, games=24, seed=11, backend=backend, batch=5, workers=2,
                      out=str(path))  # fmt: skip
        assert (results.played, results.lost, results.balanced) == (24, (), True)
    local = sorted(files["local"].read_text().splitlines())
    assert sorted(files["process"].read_text().splitlines()) == local
    assert sorted(files["ray"].read_text().splitlines()) == local


def test_a_batch_whose_ray_worker_dies_is_reported(cluster: None, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    results = run(["random", f"{BOTS}:ExitBot"], games=2, batch=1, retries=0,
                  backend="ray", out=str(out))  # fmt: skip
    assert sorted(i for lost in results.lost for i in lost.games) == [0, 1]
    assert all("games" in lost.error for lost in results.lost)
    assert results.games == 0 and out.read_text() == ""


def test_a_real_clusters_address_passes_the_check(cluster: None) -> None:
    """The check's gRPC exchange is answered by Ray's real GCS, however it is named."""
    host, port = ray.get_runtime_context().gcs_address.rsplit(":", 1)
    for address in (f"{host}:{port}", f"127.0.0.1:{port}", f"localhost:{port}"):
        check_ray_address(address)  # raises RayClusterError on a refusal


def test_another_ray_grpc_port_is_left_to_ray_which_refuses_it(
    cluster: None, tmp_path: Path
) -> None:
    """The raylet's port speaks gRPC (HTTP/2) too, so it passes the check; ``ray.init``
    refuses it by itself, in bounded time, and the command says so in its last line."""
    port = ray.nodes()[0]["NodeManagerPort"]
    check_ray_address(f"127.0.0.1:{port}")
    out = tmp_path / "games.jsonl"
    done = join(f"127.0.0.1:{port}", out)
    assert done.returncode == 2, done.stderr
    last = done.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"azul-rules: cannot start or reach a Ray cluster at '127.0.0.1:{port}'")
    assert not out.exists() or out.read_text() == ""  # opened before ray.init, left empty


def join(address: str, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``azul-rules tournament --backend ray --ray-address ADDRESS`` in a new process
    (this process's environment, without RAY_ADDRESS, and with ``env``)."""
    environment = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | env
    return subprocess.run(
        [sys.executable, "-m", "azul_rules", "tournament", "--bots", "greedy,random",
         "--games", "4", "--backend", "ray", "--ray-address", address,
         "--out", str(out), "--no-progress"],
        capture_output=True, text=True, timeout=120, env=environment,
    )  # fmt: skip


def uses_tokens() -> bool:
    """Whether this module's cluster wants Ray's token (Ray's token authentication)."""
    from ray._private.authentication.authentication_utils import is_token_auth_enabled

    return bool(is_token_auth_enabled())


def test_the_command_line_joins_a_running_cluster_by_its_address(
    cluster: None, tmp_path: Path
) -> None:
    """``--ray-address HOST:PORT`` of a running cluster: checked, joined, games played
    there (the cluster of this module, joined by a second driver, with the token mode
    this module's ``ray.init`` set for its own cluster, if any)."""
    port = ray.get_runtime_context().gcs_address.rsplit(":", 1)[1]
    out = tmp_path / "games.jsonl"
    done = join(f"127.0.0.1:{port}", out)
    assert done.returncode == 0, done.stderr
    assert len(out.read_text().splitlines()) == 4
    assert "4 games played" in done.stdout


def test_a_cluster_that_wants_a_token_ray_will_not_send_is_refused_by_ray(
    cluster: None, tmp_path: Path
) -> None:
    """Ray sends its token to an explicit address only with RAY_AUTH_MODE=token; without
    it the address passes the check (it speaks gRPC) and ``ray.init`` fails by itself,
    saying only "Failed to connect": exit 2, the last line naming the address and what
    to set."""
    if not uses_tokens():
        pytest.skip("this module's cluster does not use tokens")
    address = ray.get_runtime_context().gcs_address
    out = tmp_path / "games.jsonl"
    done = join(address, out, RAY_AUTH_MODE="disabled")
    assert done.returncode == 2, done.stderr
    last = done.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"azul-rules: cannot start or reach a Ray cluster at {address!r}")
    assert "token authentication, set RAY_AUTH_MODE=token" in last
    assert not out.exists() or out.read_text() == ""  # opened before ray.init, left empty
