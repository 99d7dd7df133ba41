"""LLVM intrinsics for foogo's kernels: what numba has no word for, written as one LLVM instruction each.

* `screen_max`  a float32 max that a `fast_inline` loop can reduce in vector
            registers (LLVM's maxnum): numba's own max() is a compare and a select,
            which LLVM leaves scalar, and with it the whole loop.
* `prefetch`  ask the memory system for an array element before it is needed (LLVM's
            llvm.prefetch, into L2): a hint that never faults and changes no result. The
            learned prior asks for the gamma table's slots of a node's candidates before
            it rates them (features.prefetch_gammas, spatial_table.prefetch_slots).
* `atomic_add`, `atomic_cas`  an array element's atomic add (LLVM's atomicrmw, integers
            and floats) and compare-and-swap (cmpxchg): for the tree that several
            threads grow at once (tree.iterate with params[P_SHARED]).
* `rdtsc`   the processor's cycle counter, for profiling builds (jit.PROFILE).

They index like the kernels that call them (jit.py): no wraparound and no bounds check.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def screen_max(typingctx, a, b):
    """The larger of two float32s, as LLVM's maxnum with fast-math flags: a max that LLVM vectorises as
    a loop's reduction, which numba's max() (a compare and a select) does not become. For
    fast_inline screens."""
    if a != types.float32 or b != types.float32:
        return None

    def codegen(context, builder, signature, args):
        f32 = ir.FloatType()
        maxnum = builder.module.declare_intrinsic("llvm.maxnum.f32", fnty=ir.FunctionType(f32, [f32, f32]))
        return builder.call(maxnum, args, fastmath=("fast",))

    return types.float32(types.float32, types.float32), codegen


def _element_pointer(context, builder, array_type, array_value, index):
    """A pointer to array[index] of a 1-d array, with neither wrap nor bounds check (the caller's index
    is in range, as a kernel's indices are)."""
    array = context.make_array(array_type)(context, builder, array_value)
    return cgutils.get_item_pointer(context, builder, array_type, array, [index], wraparound=False,
                                    boundscheck=False)


PREFETCH_L2 = 2  # llvm.prefetch's locality: 3 is L1 (and all levels), 2 is L2 outward, 0 no reuse
PREFETCH_DATA = 1  # llvm.prefetch's cache type: 1 data, 0 instructions


@intrinsic
def prefetch(typingctx, a, i):
    """Ask for a[i] (a 1-d array) to be read soon: llvm.prefetch for reading, locality PREFETCH_L2 (the
    data is wanted after other work that may push it out of L1: features.prefetch_gammas asks for a
    node's candidates' table slots before it rates them), data cache. A hint, never a load: it
    changes nothing."""
    if not isinstance(a, types.Array) or a.ndim != 1 or not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        where = _element_pointer(context, builder, signature.args[0], args[0], args[1])  # past the end: no fault
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = builder.module.declare_intrinsic("llvm.prefetch.p0",
                                              fnty=ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]))
        builder.call(fn, [builder.bitcast(where, i8p), i32(0), i32(PREFETCH_L2), i32(PREFETCH_DATA)])
        return context.get_dummy_value()

    return types.void(a, i), codegen


@intrinsic
def rdtsc(typingctx):
    """The processor's cycle counter (llvm.readcyclecounter: the TSC on x86-64, which counts at a fixed
    rate, idle or not), as an int64: for profiling builds (jit.PROFILE)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        counter = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(i64, []))
        return builder.call(counter, [])

    return types.int64(), codegen


_ATOMIC_TYPES = (types.int32, types.int64, types.float32, types.float64)


@intrinsic
def atomic_add(typingctx, a, i, v):
    """a[i] += v as one atomic step (a 1-d int32/int64/float32/float64 array; v converted to its type),
    returning a[i]'s value before: LLVM's atomicrmw add or fadd, monotonic (no ordering beyond the
    element itself), so that threads adding to one element lose none of the additions."""
    if (not isinstance(a, types.Array) or a.ndim != 1 or a.dtype not in _ATOMIC_TYPES
            or not isinstance(i, types.Integer) or not isinstance(v, (types.Integer, types.Float))):
        return None
    dtype = a.dtype

    def codegen(context, builder, signature, args):
        where = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        value = context.cast(builder, args[2], signature.args[2], dtype)
        op = "fadd" if isinstance(dtype, types.Float) else "add"
        return builder.atomic_rmw(op, where, value, "monotonic")

    return dtype(a, i, v), codegen


@intrinsic
def atomic_cas(typingctx, a, i, expected, new):
    """If a[i] == expected, set it to new, as one atomic step (a 1-d int32 or int64 array); returns a[i]'s
    value before, so the swap happened if and only if that is `expected`. LLVM's cmpxchg, acquire and
    release: what this thread wrote before it is seen by a thread that reads the new value (a node
    published by its edge's child field, a lock released), and what it reads after it is not read early."""
    if (not isinstance(a, types.Array) or a.ndim != 1 or a.dtype not in (types.int32, types.int64)
            or not isinstance(i, types.Integer) or not isinstance(expected, types.Integer)
            or not isinstance(new, types.Integer)):
        return None
    dtype = a.dtype

    def codegen(context, builder, signature, args):
        where = _element_pointer(context, builder, signature.args[0], args[0], args[1])
        old = context.cast(builder, args[2], signature.args[2], dtype)
        value = context.cast(builder, args[3], signature.args[3], dtype)
        pair = builder.cmpxchg(where, old, value, "acq_rel", "acquire")
        return builder.extract_value(pair, 0)

    return dtype(a, i, expected, new), codegen
