"""Bit tricks for the kernels: population count, trailing zeros, and select over uint64 words.

`popcount` and `trailing_zeros` compile to the LLVM intrinsics ctpop and cttz
(one instruction each on x86-64 with POPCNT/BMI), which numba does not expose
directly; `select_in_word` uses BMI2's PDEP where the CPU has it, and `extract_bits` is
its PEXT. Everything here works on numpy uint64 values; mixing uint64 with plain Python ints
makes numba promote to float, so constants are typed.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic

from .jit import kernel

ONE = np.uint64(1)
LOW32 = np.uint64(0xFFFFFFFF)
LOW16 = np.uint64(0xFFFF)
LOW8 = np.uint64(0xFF)
LOW4 = np.uint64(0xF)
LOW2 = np.uint64(0x3)


@intrinsic
def popcount(typingctx, word):
    """Number of set bits of a uint64."""
    if word != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def trailing_zeros(typingctx, word):
    """Index of the lowest set bit of a non-zero uint64 (64 for zero)."""
    if word != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


def target_bmi2(cpu_name: str | None, cpu_features: str | None) -> tuple[bool, bool]:
    """(BMI2, a fast BMI2) on the processor numba compiles for, given numba's NUMBA_CPU_NAME and
    NUMBA_CPU_FEATURES settings (None: this host's, as numba reads them). A portable cache's "generic"
    has no BMI2, and LLVM aborts the process on a PEXT it cannot select. AMD's processors before Zen 3
    run PDEP and PEXT in microcode, some 18-250 cycles depending on the mask, so a hot path that reads a
    word with PEXT asks for the second."""
    if cpu_features is None:
        has = bool(binding.get_host_cpu_features().get("bmi2", False))
    else:
        has = "+bmi2" in cpu_features.split(",")
    name = binding.get_host_cpu_name() if cpu_name in (None, "host") else str(cpu_name)
    return has, has and not name.startswith(("znver1", "znver2", "bdver"))


HAS_BMI2, FAST_BMI2 = target_bmi2(getattr(config, "CPU_NAME", None), getattr(config, "CPU_FEATURES", None))


def _bmi2_typing(name, source, mask):
    """The typing of a BMI2 intrinsic over two uint64 (LLVM's `name`), or None for other argument types."""
    if source != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), name)
        return builder.call(fn, [args[0], args[1]])

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def deposit_bits(typingctx, source, mask):
    """BMI2 PDEP: the low bits of source scattered to the set positions of mask (x86-64 with BMI2 only)."""
    return _bmi2_typing("llvm.x86.bmi.pdep.64", source, mask)


@intrinsic
def extract_bits(typingctx, source, mask):
    """BMI2 PEXT: the bits of source at the set positions of mask, packed into the low bits in their
    order (x86-64 with BMI2 only)."""
    return _bmi2_typing("llvm.x86.bmi.pext.64", source, mask)


if HAS_BMI2:
    @kernel
    def select_in_word(word, r):
        """Index (0..63) of the r-th set bit (r counted from 0) of a uint64 with more than r set bits.

        PDEP puts a single bit at the r-th set position of word; two instructions, no branches."""
        return np.int64(trailing_zeros(deposit_bits(ONE << np.uint64(r), word)))
else:
    @kernel
    def select_in_word(word, r):
        """Index (0..63) of the r-th set bit (r counted from 0) of a uint64 with more than r set bits.

        A binary search on popcounts of halves: six steps whatever r is, where
        clearing the lowest bit r times would cost up to 63 steps (CPUs without BMI2)."""
        rank = np.uint64(r)
        pos = np.uint64(0)
        for shift, mask in ((np.uint64(32), LOW32), (np.uint64(16), LOW16), (np.uint64(8), LOW8),
                            (np.uint64(4), LOW4), (np.uint64(2), LOW2)):
            low = popcount(word & mask)
            if rank >= low:
                rank -= low
                word >>= shift
                pos += shift
        if rank >= (word & ONE):
            pos += ONE
        return np.int64(pos)
