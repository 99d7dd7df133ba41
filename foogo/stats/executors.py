"""Where `foogo stats` runs its chunks: here (threads for playouts, a process pool for self-play)
or on an existing dask.distributed cluster (imported only then)."""

from __future__ import annotations

from ..playout import default_threads
from .chunks import code_fingerprint, run_chunk
from .request import StatsError

DASK_CONNECT_TIMEOUT = "20s"  # how long to try reaching a --scheduler before giving up

def run_local(manifest: dict, todo: list, threads: int, on_done) -> None:
    """Run chunks `todo` here: random playouts one chunk at a time on `threads` threads, self-play
    chunks in a pool of `threads` processes, at most one a core (each is a Python with numba and the search's
    kernels, some 200 MB: more than the cores would only add memory). Calls on_done(record) as each one
    finishes."""
    if manifest["mode"] == "selfplay":
        threads = min(threads, default_threads())
    if manifest["mode"] == "random" or threads == 1:
        for group, first, count in todo:
            on_done(run_chunk(manifest, group, first, count, threads))
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=threads, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = {pool.submit(run_chunk, manifest, *job) for job in todo}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    on_done(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            _stop_workers(pool)
            raise


def _stop_workers(pool) -> None:
    """Stop a process pool's workers at once: the pool's exit would wait for every self-play chunk under way
    (minutes long; the next run computes them again), and a `kill` of this process alone left them running
    after it. ProcessPoolExecutor has no public way to do it before Python 3.14's terminate_workers."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def connect_dask(address: str, manifest: dict):
    """A dask.distributed Client of the scheduler at `address`, checked to run playouts identical to
    this process's; StatsError if dask is missing, the scheduler is unreachable or its foogo differs."""
    try:
        from distributed import Client
    except ImportError:
        raise StatsError("--scheduler needs dask.distributed: pip install 'foogo[dask]'") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise StatsError(f"cannot reach the dask scheduler at {address}: {error}") from None
    try:
        remote = client.submit(code_fingerprint, manifest, pure=False).result()
        if remote != manifest["fingerprint"]:
            raise StatsError(f"the cluster at {address} runs a foogo whose results differ from this one's")
    except BaseException:
        client.close()
        raise
    return client


def run_dask(client, manifest: dict, todo: list, threads: int, on_done) -> None:
    """Run chunks `todo` as tasks of the dask.distributed `client`, `threads` playout threads per task,
    calling on_done(record) here as each one finishes (in any order)."""
    from distributed import as_completed

    futures = [client.submit(run_chunk, manifest, *job, threads, pure=False) for job in todo]
    try:
        for future in as_completed(futures):
            on_done(future.result())
    except BaseException:
        client.cancel(futures)
        raise
