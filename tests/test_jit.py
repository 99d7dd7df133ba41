"""jit.py's lowering hook and its fallback: kernels index without wraparound through numba
internals (written against numba 0.68, the version pyproject.toml pins); if a numba lacks them,
kernels must still compile, the usual way, with a warning. And what fast_inline and screen_max are
for: the tree's screen and AMAF update compile to vector code."""

import json
import platform
import re
import warnings

import numpy as np
import pytest
from numba import njit
from numba.np import arrayobj

from foogo import intrinsics, jit


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


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="reads x86-64 machine code")
def test_the_tree_screen_and_amaf_update_compile_to_vector_code():
    # README once said the selection screen vectorised when it did not (numba's max() kept the loop
    # scalar); an uncached wrapper, whose machine code numba shows, inlines each loop as the search does
    from foogo import tree_select as ts

    @njit
    def screen(n, w, an, aw, eq, values):
        return ts._screen(n, w, an, aw, eq, values)

    @njit
    def credit(firstc, n, w, an, aw, color, result, eq, values):
        return ts.credit_and_screen(firstc, n, w, an, aw, color, result, eq, values)

    row = np.ones(98, dtype=np.float32)
    screen(row, row, row, row, 1000.0, np.zeros(98, dtype=np.float32))
    credit(np.zeros(98, dtype=np.int8), row, row, row.copy(), row.copy(), 1, np.float32(0.5), 1000.0,
           np.zeros(98, dtype=np.float32))
    packed = [set(re.findall(r"\bv?(max|add)ps\b", f.inspect_asm(f.signatures[0]))) for f in (screen, credit)]
    assert "max" in packed[0], "the screen's maximum is not a packed (vector) max"
    assert {"add", "max"} <= packed[1], "the AMAF update and its screen do not add and max packed (vector) values"


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="reads x86-64 machine code")
def test_the_pass_over_the_screen_compiles_to_vector_code():
    # _passing's count and offset sum were scalar while the offset came from converting the int64
    # loop index lane by lane (vcvtsi2ss each): 212 cycles for a 98-edge node, 39 when vectorised;
    # they are int32 lanes now (vpaddd), 16 to a 512-bit vector
    from foogo import tree_select as ts

    @njit
    def passing(values, count, bar):
        return ts._passing(values, count, bar)

    values = np.arange(98, dtype=np.float32)
    assert passing(values, 98, np.float32(97.0)) == (1, 97)
    assert passing(values, 98, np.float32(95.0)) == (3, 95 + 96 + 97)
    code = passing.inspect_asm(passing.signatures[0])
    assert re.search(r"\bv?paddd\b", code), "the pass does not add packed (vector) int32 counts"
    assert not re.search(r"\bv?cvtsi2ss[lq]?\b", code), "the pass converts integers to float lane by lane"


def test_prefetch_is_a_hint_that_changes_nothing():
    @njit
    def touch(a, i):
        intrinsics.prefetch(a, i)
        intrinsics.prefetch(a, a.shape[0] + 1000)  # past the end: a hint, never a load
        return a[i]

    for dtype in (np.int32, np.float32, np.uint8):
        a = np.arange(50, dtype=dtype)
        assert touch(a, 3) == 3
        assert np.array_equal(a, np.arange(50, dtype=dtype))
    if platform.machine() in ("x86_64", "AMD64"):
        code = touch.inspect_asm(touch.signatures[0])
        assert len(re.findall(r"\bprefetcht1\b", code)) >= 2  # into L2


def test_the_kernel_cache_stamp_counts_code_not_docstrings_or_comments():
    source = 'def f(a):\n    """Twice a."""\n    return a * 2  # doubled\n'
    reworded = '# the module\n\ndef f(a):\n    """Two times a, a longer docstring."""\n\n    return a * 2\n'
    changed = 'def f(a):\n    """Twice a."""\n    return a * 3  # doubled\n'
    nodoc = 'def f(a):\n    return a * 2\n'
    assert jit.code_digest(source) == jit.code_digest(reworded) == jit.code_digest(nodoc)
    assert jit.code_digest(source) != jit.code_digest(changed)
    # a string that is a function's whole body is its docstring: the function does nothing either way
    assert jit.code_digest('def g():\n    "x"\n') == jit.code_digest("def g():\n    pass\n")


def test_the_code_digests_are_kept_under_each_files_stamp_and_a_damaged_record_is_ignored(tmp_path, monkeypatch):
    record = tmp_path / "digests.json"
    monkeypatch.setattr(jit, "_DIGESTS_FILE", str(record))
    digest = jit._sources_digest()
    assert digest == jit._STAMP[1]
    kept = json.loads(record.read_text())
    assert set(kept) == set(jit.KERNEL_MODULES)
    assert [p.name for p in tmp_path.iterdir()] == ["digests.json"]  # written whole, no temporary file left
    record.write_text("{not json")
    assert jit._sources_digest() == digest and json.loads(record.read_text()) == kept
    stale = dict(kept, **{"tree.py": ["0:0", "0" * 64]})  # another file's stamp: parsed again
    record.write_text(json.dumps(stale))
    assert jit._sources_digest() == digest and json.loads(record.read_text()) == kept
    trusted = dict(kept, **{"tree.py": [kept["tree.py"][0], "0" * 64]})  # this file's stamp: trusted, as numba does
    record.write_text(json.dumps(trusted))
    assert jit._sources_digest() != digest
    # a record that cannot be written (a directory stands in its place) is only not kept, and leaves nothing beside
    (tmp_path / "blocked").mkdir()
    monkeypatch.setattr(jit, "_DIGESTS_FILE", str(tmp_path / "blocked"))
    assert jit._sources_digest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked", "digests.json"]


_LOADS_A_CACHED_HELPER = """
from numba import njit
from foogo import board_layout as bl

@njit
def through(P, field, p):
    return bl._at(P, field, p)

assert through(81, 2, 40) == bl._at.py_func(81, 2, 40)
library = next(iter(bl._at.overloads.values())).library
assert library._shared_module is None, "the helper was compiled here, or its parsed IR kept"
assert library._foogo_bitcode
print("linked")
"""


def test_a_function_from_the_cache_keeps_its_ir_as_bitcode_and_still_links_into_a_new_caller():
    # the hook that keeps a loaded kernel's linking IR unparsed (45 MB for the search's iteration): a
    # function compiled after it, which inlines a cached helper, must still get the helper's code
    import subprocess
    import sys

    from foogo import board_layout as bl

    assert jit.LAZY_LINKING_IR

    @njit
    def through(P, field, p):
        return bl._at(P, field, p)

    assert through(81, 2, 40) == bl._at.py_func(81, 2, 40)  # compiles (and caches) the helper here if need be
    out = subprocess.run([sys.executable, "-c", _LOADS_A_CACHED_HELPER], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "linked"


def test_without_numbas_internals_cached_kernels_keep_their_ir_with_a_warning(monkeypatch):
    from numba.core import codegen

    with monkeypatch.context() as patch, warnings.catch_warnings(record=True) as caught:
        patch.delattr(codegen.CPUCodeLibrary, "_get_module_for_linking")  # a numba whose internals moved
        warnings.simplefilter("always")
        hooked = jit._lazy_linking_ir()
    assert not hooked
    assert any("keep their parsed IR" in str(w.message) for w in caught)
