"""OpenBLAS's threads around policy opponents: NumPy's matrix products, one thread.

NumPy's matrix product runs on OpenBLAS, which starts one thread a core for every product,
however small. A policy opponent of the batched environment multiplies a few rows by its
weights at each of its turns; on a machine whose cores are busy, those threads wait for
each other and the policy runs many times slower than on one thread (measured in
``benchmarks/blas_threads.py``; docs/environments.md). :class:`~eights.rl.EightsVectorEnv`
therefore calls its policy opponents with OpenBLAS limited to ``blas_threads`` threads
(one by default) where threadpoolctl is installed; without it, set
``OPENBLAS_NUM_THREADS=1`` in the environment before Python starts.

Only OpenBLAS (and any other BLAS threadpoolctl finds) is limited, not OpenMP: PyTorch's
threads stay PyTorch's (``torch.set_num_threads``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from importlib.util import find_spec
from typing import Any

__all__ = ["AUTO", "BlasLimited", "blas_limit"]

AUTO = "auto"
"""``blas_threads="auto"``: one thread where threadpoolctl is installed, else as it is."""


def blas_limit(threads: int | str | None) -> Callable[[], AbstractContextManager[Any]] | None:
    """What to enter around a policy opponent's call for ``threads`` BLAS threads: ``None``
    to leave them as they are (``threads=None``, or ``"auto"`` without threadpoolctl).
    A :class:`ValueError` for a count that is not a positive integer; a
    :class:`ModuleNotFoundError` when a count is asked for without threadpoolctl."""
    if threads is None:
        return None
    if threads != AUTO and (isinstance(threads, bool) or not isinstance(threads, int)
                            or threads < 1):
        raise ValueError(f"blas_threads must be a positive number of threads, 'auto' (one "
                         f"where threadpoolctl is installed) or None (as they are), not "
                         f"{threads!r}")
    if find_spec("threadpoolctl") is None:
        if threads == AUTO:
            return None
        raise ModuleNotFoundError("blas_threads needs threadpoolctl: pip install threadpoolctl "
                                  "(or set OPENBLAS_NUM_THREADS=1 before Python starts, and "
                                  "blas_threads=None)", name="threadpoolctl")
    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController()
    limit = 1 if threads == AUTO else int(threads)
    return lambda: controller.limit(limits=limit, user_api="blas")


class BlasLimited:
    """``policy``, called inside ``limit()`` (:func:`blas_limit`); its ``repr`` is the
    policy's, so that errors name the policy."""

    def __init__(self, policy: Callable[..., Any], limit: Callable[[], AbstractContextManager[Any]]
                 ) -> None:
        self.policy = policy
        self._limit = limit

    def __call__(self, obs: Any, mask: Any) -> Any:
        with self._limit():
            return self.policy(obs, mask)

    def __repr__(self) -> str:
        return repr(self.policy)
