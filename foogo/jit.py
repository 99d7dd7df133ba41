"""How foogo compiles: the numba decorators every kernel module uses, and a cache that cannot go stale.

* `kernel`  a hot-path kernel: cached, compiled without numba's reference
            counting (NRT). With NRT, every call of a small helper that takes an
            array and branches keeps an atomic NRT_incref/NRT_decref pair that LLVM
            cannot remove: measured here it made playable-bit updates 10x slower
            and whole playouts 2-4x slower. Such kernels must not allocate (no
            np.zeros, no .copy(), no slice assignment between arrays); callers
            pass in every array they need.
* `inline`  a helper of those kernels, marked `alwaysinline` for LLVM (numba's
            forceinline), so that LLVM optimises a whole move at once. Not numba's
            own inline="always", which inlines in numba's IR and re-runs type
            inference for every inlined call: with the board's steps written as
            helpers that made a fresh compile of the playout take 167 s against
            16 s this way, for the same playouts/s.
* `step`    a large part of a kernel that only wraps it: numba inlines it into its caller's IR
            before typing (numba's inline="always"), so it gets no compilation of its own. An
            `inline` helper is compiled and optimised by LLVM alone, then again inside each
            caller: `run_iterations`, which only wraps the search's `iterate`, spent 12.6 s
            re-optimising it. As a step, a fresh search compiled in 72 s instead of 81 (alternated
            runs on a 2-core Xeon, 2026-12-02), at the same searches per second. Making its own large steps
            (`_play_out`, `_descend`) such steps too saved 11 s more but lost 2-3% of the
            heavy search's speed: LLVM's second pass over them was worth something. Not for
            small helpers called from many places, whose typing numba would redo at each.
* `fast_inline`  an `inline` helper compiled with fast math, so that LLVM
            vectorises its loop (a division becomes a reciprocal estimate, a sum
            may be reordered): for screens whose answer exact code then checks.
* The LLVM intrinsics those kernels call (screen_max, prefetch, atomic_add, atomic_cas,
            rdtsc) are intrinsics.py's.
* `jit`     an ordinary cached numba function (may allocate): drivers, checks.
* `uncached_nogil`  a driver made at run time around a user's function (custom
            playout policies, playout.custom_batch): not cached, see below.

`kernel` and `inline` index like C, as Cython's wraparound=False does: a
negative index is not wrapped to the end of the array (there is no `a[-1]` in a
kernel; an index below 0 is out of bounds, as it is above the end). Numba has
no such option and adds a compare-and-select to every array access with a
signed index; the playout kernels make several hundred accesses a move, and
dropping them measured +20% playouts/s. `KERNEL_PIPELINE` below lowers
kernels with its own lowering class, and the hook on numba's
`fix_integer_index` skips the wrap only inside functions that class is
lowering: numba's own helpers, `jit` functions and other numba users in the
process keep Python's semantics. The hook uses numba internals (written
against numba 0.68); should a numba lack them, kernels compile the usual way
(correct, slower) with a warning, and a test fails to say so.

Numba's on-disk cache decides freshness by the stamp (mtime, size) of the one
file that defines a function. foogo's kernels inline each other across files,
so a playout cached against an older board layout would load silently and be
wrong. The locators below stamp every foogo kernel with a digest of all kernel
sources instead: change the code of any of them and every kernel recompiles.
The digest is of the code alone (`code_digest`: the syntax tree, without
docstrings, comments or line numbers), so that rewording a docstring or a
comment costs no recompilation (a change that moves a kernel's first line
misses its own cache file, whose name numba takes from that line). Functions made
with these decorators outside the package (a bench script's or a test's kernels,
which inline foogo's) carry that digest and their own file's stamp.
"""

from __future__ import annotations

import ast
import ctypes
import hashlib
import json
import os
import platform
import warnings
import zlib

from numba import njit, types
from numba.core.caching import (
    CacheImpl,
    CompileResultCacheImpl,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)

from .files import write_whole

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
KERNEL_MODULES = (
    "jit.py", "intrinsics.py", "bits.py", "board_layout.py", "board_moves.py", "board_playable.py",
    "board_liberties.py", "board_score.py", "board_check.py", "board_kernels.py", "playout.py", "playout_ownership.py",
    "playout_check.py", "patterns.py", "nakade.py",
    "random_stream.py", "policy_light.py", "tactics.py", "policy_local.py", "policy_heavy.py", "policy.py",
    "ladders.py", "features.py", "spatial_patterns.py", "spatial_table.py",
    "tree_layout.py", "tree_priors.py", "tree_select.py", "tree_grow.py", "tree_superko.py", "tree_score.py", "tree.py",
    "shared_root.py",
)


def code_digest(source: str) -> str:
    """A digest of a module's code: its syntax tree less docstrings, so that comments, docstrings,
    blank lines and line numbers do not count."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest()


_DIGESTS_FILE = os.path.join(_PACKAGE_DIR, "__pycache__", "kernel-code-digests.json")


def _read_digests() -> dict:
    """The code digests last computed, by module: {name: [stamp, digest]}; {} if none or unreadable."""
    try:
        with open(_DIGESTS_FILE, encoding="utf-8") as handle:
            digests = json.load(handle)
    except (OSError, ValueError):
        return {}
    return digests if isinstance(digests, dict) else {}


def _write_digests(digests: dict) -> None:
    """Keep the digests for the next process (files.write_whole: the old record or the new one, never part of
    one, and no temporary file left behind; not at all where the package is read-only)."""
    try:
        os.makedirs(os.path.dirname(_DIGESTS_FILE), exist_ok=True)
        write_whole(_DIGESTS_FILE, json.dumps(digests).encode("utf-8"))
    except OSError:
        pass


def _sources_digest() -> str:
    """The kernel modules' code_digest, together. Each module's is kept in __pycache__ under its file's
    stamp (mtime, size), as numba keeps its own: parsing every module would cost each process 0.1 s."""
    known = _read_digests()
    fresh = {}
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        path = os.path.join(_PACKAGE_DIR, name)
        if not os.path.exists(path):
            continue
        info = os.stat(path)
        stamp = f"{info.st_mtime_ns}:{info.st_size}"
        entry = known.get(name)
        if isinstance(entry, list) and len(entry) == 2 and entry[0] == stamp and isinstance(entry[1], str):
            code = entry[1]
        else:
            with open(path, encoding="utf-8") as handle:
                code = code_digest(handle.read())
        fresh[name] = [stamp, code]
        digest.update(name.encode() + b"\0" + code.encode())
    if fresh != known:
        _write_digests(fresh)
    return digest.hexdigest()


# FOOGO_PROFILE=1: profiling builds, whose search kernels count cycles per part (tree.iterate, read by
# bench/search_cycles.py); a constant in the kernels, so that otherwise the counters compile away. It is
# part of the cache stamp and of the cache files' names (_StampMixin), so that the two builds never load
# or overwrite each other's kernels; bench/search_cycles.py also gives its builds a cache directory apart.
PROFILE = os.environ.get("FOOGO_PROFILE") == "1" and platform.machine() in ("x86_64", "AMD64")  # rdtsc's TSC
_STAMP = ("foogo-kernels", _sources_digest(), "profile" if PROFILE else "")


_ELSEWHERE: set = set()  # code of foogo-decorated functions outside the package (a bench script's kernels)


def _in_package(py_file) -> bool:
    return os.path.dirname(os.path.abspath(py_file)) == _PACKAGE_DIR


class _StampMixin:
    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_package(py_file) and py_func.__code__ not in _ELSEWHERE:
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        """All kernel sources; for a kernel outside the package, also its own file's (mtime, size)."""
        return _STAMP if _in_package(self._py_file) else (_STAMP, super().get_source_stamp())

    def get_disambiguator(self):
        """numba's part of a cache file's name, marked in profiling builds: their files stand apart."""
        return super().get_disambiguator() + ("-profile" if PROFILE else "")


class _UserProvidedLocator(_StampMixin, UserProvidedCacheLocator):
    """Cache in NUMBA_CACHE_DIR when the user set it, stamped with all kernel sources."""


class _InTreeLocator(_StampMixin, InTreeCacheLocator):
    """Cache beside the sources (in __pycache__), stamped with all kernel sources."""


class _UserWideLocator(_StampMixin, UserWideCacheLocator):
    """Cache in the user's cache directory when the package is read-only, same stamp."""


# numba's own order, with these in front: user-provided dir, in-tree, user-wide
for _locator in (_UserWideLocator, _InTreeLocator, _UserProvidedLocator):
    if _locator not in CacheImpl._locator_classes:
        CacheImpl._locator_classes.insert(0, _locator)


def _refuse_function_arguments(cache_impl) -> None:
    """Never cache a foogo function's compilation for a function-typed argument (a custom policy's
    chooser, which tree.iterate and playout.play_out_with take): numba keys it on the function
    object, so no other process could load it, and once that function is collected, every later
    save into the same cache index fails as numba pickles the dead key (ReferenceError: "underlying
    object has vanished"), as it did for a second custom policy after a first was dropped."""
    numba_check = cache_impl.check_cachable

    def check_cachable(self, cres):
        if isinstance(self._locator, _StampMixin) and any(isinstance(t, types.Dispatcher)
                                                          for t in cres.signature.args):
            return False
        return numba_check(self, cres)

    cache_impl.check_cachable = check_cachable


_refuse_function_arguments(CompileResultCacheImpl)


# ---------------------------------------------------------------- no wraparound in kernels

_UNWRAPPED: set[str] = set()  # LLVM names of the kernel functions being lowered right now


def _unwrapped_pipeline():
    """numba's nopython pipeline lowering without the negative-index wrap, or None (with a warning
    on stderr) if this numba's internals are not the ones the hook was written against: kernels
    then compile with numba's own pipeline, correct and about a fifth slower."""
    try:
        from numba import types
        from numba.core import lowering
        from numba.core.compiler import CompilerBase, DefaultPassBuilder
        from numba.core.compiler_machinery import register_pass
        from numba.core.typed_passes import NativeLowering
        from numba.np import arrayobj

        numba_fix_integer_index = arrayobj.fix_integer_index
        base_lower = lowering.Lower.lower
    except (ImportError, AttributeError) as exc:  # pragma: no cover (another numba)
        warnings.warn(f"foogo: kernels keep numba's negative-index wrap ({exc}); playouts run slower", stacklevel=2)
        return None

    def fix_integer_index(context, builder, idxty, idx, size):
        """numba's index fix-up, minus the negative-index wrap inside a kernel being lowered."""
        if idxty.signed and builder.function.name in _UNWRAPPED:
            return context.cast(builder, idx, idxty, types.intp)
        return numba_fix_integer_index(context, builder, idxty, idx, size)

    class KernelLower(lowering.Lower):
        """numba's lowering of one function, with its name in _UNWRAPPED meanwhile."""

        def lower(self):
            name = self.fndesc.mangled_name
            _UNWRAPPED.add(name)
            try:
                base_lower(self)
            finally:
                _UNWRAPPED.discard(name)

    @register_pass(mutates_CFG=True, analysis_only=False)
    class KernelLowering(NativeLowering):
        """numba's native lowering pass with KernelLower."""

        _name = "foogo_kernel_lowering"

        @property
        def lowering_class(self):
            return KernelLower

    class KernelCompiler(CompilerBase):
        """numba's nopython pipeline with KernelLowering in place of NativeLowering."""

        def define_pipelines(self):
            pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm.passes = [(KernelLowering if cls is NativeLowering else cls, text) for cls, text in pm.passes]
            pm.finalize()
            return [pm]

    arrayobj.fix_integer_index = fix_integer_index
    return KernelCompiler


KERNEL_PIPELINE = _unwrapped_pipeline()  # None: numba's own pipeline (see above)
_pipeline = {} if KERNEL_PIPELINE is None else {"pipeline_class": KERNEL_PIPELINE}


# ---------------------------------------------------------------- cached kernels' linking IR, parsed on demand

def _lazy_linking_ir() -> bool:
    """Make a function loaded from numba's cache keep its linking IR as bitcode, parsed when a
    compilation links it, instead of parsed at load and kept; True if hooked, False (with a warning)
    if this numba's internals are not the ones the hook was written against.

    numba caches a function as its machine code and the optimised LLVM IR of everything it inlined
    (for later callers to link in and inline), and on loading parses that IR into an LLVM module it
    keeps for the life of the process. The machine code is what runs. foogo's search iteration inlines
    the whole board, policy and tree into one function: its IR is 2.6 MB of bitcode, 405 KB of machine
    code, and parsed it took 45 MB, so that a 9x9 `foogo gtp --time 2` game went over issue 10's 250 MB
    (284 MB). A linking module is only read when another function is compiled against it (a custom
    policy's kernel, a bench script's), and then parsed afresh (numba links a copy of it anyway). The
    hook is numba's loading and linking otherwise unchanged, for every cached function in the process."""
    try:
        from llvmlite import binding as ll
        from numba.core.codegen import CPUCodeLibrary

        numba_unserialize = CPUCodeLibrary.__dict__["_unserialize"].__func__
        numba_linking = CPUCodeLibrary._get_module_for_linking
    except (ImportError, AttributeError, KeyError) as exc:  # another numba
        warnings.warn(f"foogo: cached kernels keep their parsed IR ({exc}); the search takes ~40 MB more", stacklevel=2)
        return False

    def _unserialize(cls, codegen, state):
        library = numba_unserialize(cls, codegen, state)
        if state[1] == "object" and getattr(library, "_shared_module", None) is not None:
            library._foogo_bitcode = zlib.compress(state[2][1], 1)  # what numba parsed (and read the symbols of)
            library._shared_module = None
            _give_back()
        return library

    def _get_module_for_linking(self):
        bitcode = getattr(self, "_foogo_bitcode", None)
        if bitcode is not None and getattr(self, "_shared_module", None) is None:
            return ll.parse_bitcode(zlib.decompress(bitcode))
        return numba_linking(self)

    CPUCodeLibrary._unserialize = classmethod(_unserialize)  # type: ignore[method-assign,assignment]
    CPUCodeLibrary._get_module_for_linking = _get_module_for_linking  # type: ignore[method-assign]
    return True


def _malloc_trim():
    """glibc's malloc_trim, or None (another C library, another system)."""
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim if platform.system() == "Linux" else None
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _malloc_trim()


def _give_back() -> None:
    """Return the C heap's free memory to the system (glibc's malloc_trim; elsewhere nothing): an
    LLVM module parsed and freed leaves its pages with the allocator, resident, otherwise."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)

LAZY_LINKING_IR = _lazy_linking_ir()



def _stamped(decorator):
    """decorator, whose functions outside the package (bench scripts, tests) are cached with the
    kernel sources' stamp too: they inline foogo's kernels, so a bench script's kernel cached
    against an older policy would otherwise load silently and run the old policy."""
    def decorate(func):
        if not _in_package(func.__code__.co_filename):
            _ELSEWHERE.add(func.__code__)
        return decorator(func)
    return decorate


# numba's stubs know neither _nrt nor forceinline
kernel = _stamped(njit(cache=True, _nrt=False, nogil=True, **_pipeline))  # type: ignore[call-overload]
inline = _stamped(njit(cache=True, _nrt=False, forceinline=True, **_pipeline))  # type: ignore[call-overload]
# an inline helper whose loop LLVM may vectorise with fast math (reassociation, reciprocals): only for
# estimates that exact code then checks (tree.select_edge's screen), never for a result itself
fast_inline = _stamped(njit(cache=True, _nrt=False, forceinline=True, fastmath=True, error_model="numpy", **_pipeline))  # type: ignore[call-overload]
# no cache of its own (nothing is compiled for it alone): its callers' cache stamp covers its source
step = njit(inline="always", _nrt=False, **_pipeline)  # type: ignore[call-overload]
jit = njit(cache=True)
jit_nogil = njit(cache=True, nogil=True)
# a kernel built around a function given at run time (a custom playout policy): numba's cache
# keys such kernels on the function object, so they are never found again; compiled per process
uncached_nogil = njit(nogil=True)
