"""jit.py's lowering hook and its fallback: kernels index without wraparound through numba
internals (written against numba 0.68, the version pyproject.toml pins); if a numba lacks them,
kernels must still compile, the usual way, with a warning."""

import warnings

import numpy as np
from numba import njit
from numba.np import arrayobj

from foogo import jit


def test_the_hook_is_active_with_this_numba():
    assert jit.KERNEL_PIPELINE is not None


def test_without_numbas_internals_kernels_fall_back_with_a_warning(monkeypatch):
    with monkeypatch.context() as patch, warnings.catch_warnings(record=True) as caught:
        patch.delattr(arrayobj, "fix_integer_index")  # a numba whose internals moved
        warnings.simplefilter("always")
        pipeline = jit._unwrapped_pipeline()
    assert pipeline is None
    assert any("negative-index wrap" in str(w.message) for w in caught)

    # what jit.py then builds: numba's own pipeline, no reference counting, correct results
    fallback = njit(_nrt=False, **({} if pipeline is None else {"pipeline_class": pipeline}))

    @fallback
    def walk(a, start):
        total = 0
        i = start
        while i < a.shape[0]:
            total += a[i]
            i += 2
        return total

    a = np.arange(10, dtype=np.int32)
    assert walk(a, 1) == 1 + 3 + 5 + 7 + 9
