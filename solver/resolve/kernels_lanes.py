"""Operations on 16 lanes (float32: one 512-bit vector) that numba's loops do not express well, for
the terminal batch of :mod:`kernels_vector_cfr` and the sweep of :mod:`kernels_showdown`.

A transpose written as loops moves one float at a time (about 0.5 ns an element, measured: 15 us for
the 28 reach rows of a 1,081-hand pass); :func:`transpose_tile` loads 16 vectors, transposes them in
registers with four rounds of the perfect shuffle (row ``i`` zipped with row ``i + 8``: after four
rounds row ``c`` holds column ``c``; 64 two-source shuffles, ``vpermt2ps`` with AVX-512) and stores
16 vectors; :func:`transpose_values_tile` first forms each row as ``a * x + b * y`` (a terminal's
values from its sweep sums and compatible reach), so that they never make a pass of their own
through memory (measured: 3.1 us a pass as a hand-major step, 0.3 us in the transpose). A loop over a row of 16 or 32 columns compiles to a vector body for 64 and a scalar
remainder that does the work (measured: the sweep's two 32-column loops cost 12.6 of its 20.6 us);
the lane operations are one vector each, straight-line. Each takes flat element offsets into
C-contiguous arrays of one float dtype (float32; float64 too, as two vectors), with no bounds
check: an offset must leave 16 elements. Where the CPU
has narrower vectors LLVM splits them: the same results, slower. Under NUMBA_DISABLE_JIT they are
numpy on flat views, with the same float32 arithmetic in the same order.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic

LANES = 16
"""Float32 lanes of a 512-bit vector (float64: two): the rows and columns of a tile, the width of a lane operation."""

_ZIP_LOW = [x for i in range(LANES // 2) for x in (i, LANES + i)]
_ZIP_HIGH = [x for i in range(LANES // 2, LANES) for x in (i, LANES + i)]


@njit(cache=True, nogil=True)
def padded(count):
    """``count`` rounded up to a whole number of :data:`LANES` (the width of a padded row or batch)."""
    return -(-count // LANES) * LANES


@njit(cache=True, nogil=True)
def aligned_zeros(rows, columns, dtype):
    """Zeros (rows, columns) of ``dtype``, C-contiguous, starting on a 64-byte boundary (a vector of
    :data:`LANES` float32: with ``columns`` a multiple of 16 no vector straddles two cache lines;
    measured: the batch's sweep 14 us on 64-byte-aligned rows, 23 us on numpy's 16-byte alignment)."""
    buffer = np.zeros(rows * columns + LANES, dtype)
    skip = (-buffer.ctypes.data) % 64 // buffer.itemsize
    return buffer[skip : skip + rows * columns].reshape((rows, columns))


def _flat(array, offset):
    """The 16 elements of ``array`` from flat index ``offset`` (a view)."""
    return array.reshape(-1)[offset : offset + LANES]


def _pointer(context, builder, array_type, array, offset):
    """LLVM pointer to the vector at flat element ``offset`` of ``array``."""
    data = context.make_array(array_type)(context, builder, array).data
    vector = ir.VectorType(context.get_data_type(array_type.dtype), LANES)
    return builder.bitcast(builder.gep(data, [offset]), vector.as_pointer())


def _same_float(*arrays):
    """Whether the arguments are arrays of one float dtype (float32 or float64)."""
    return all(
        isinstance(t, types.Array) and t.dtype == arrays[0].dtype in (types.float32, types.float64) for t in arrays
    )


def _int64(context, builder, signature, args, i):
    """Argument ``i`` (an integer) as an LLVM i64."""
    return context.cast(builder, args[i], signature.args[i], types.int64)


if config.DISABLE_JIT:

    def transpose_tile(source, source_rows, first_row, shift, target, target_rows, target_first, target_shift):
        """Row ``r`` of the tile (16 floats at flat ``source_rows[first_row + r] + shift`` of
        ``source``) becomes column ``r`` (element ``r`` of the 16 floats at flat
        ``target_rows[target_first + c] + target_shift`` of ``target``, ``c`` from 0 to 15, stored in
        that order: a later row wins where two overlap). ``source`` and ``target`` may be one array
        if the tiles do not overlap."""
        tile = np.stack([_flat(source, source_rows[first_row + r] + shift) for r in range(LANES)])
        for c in range(LANES):
            _flat(target, target_rows[target_first + c] + target_shift)[:] = tile[:, c]

    def transpose_values_tile(
        x, y, source_rows, first_row, shift, a, b, target, target_rows, target_first, target_shift
    ):
        """:func:`transpose_tile` of the tile whose row ``r`` is ``a * x + b * y`` on the 16 lanes
        (``(a * x) + (b * y)``, no fused multiply-add; ``x``, ``y`` at flat ``source_rows[first_row + r]
        + shift``, ``a``, ``b`` at ``shift``)."""
        rows = [_flat(x, source_rows[first_row + r] + shift) for r in range(LANES)]
        tile = np.stack(
            [
                _flat(a, shift) * rows[r] + _flat(b, shift) * _flat(y, source_rows[first_row + r] + shift)
                for r in range(LANES)
            ]
        )
        for c in range(LANES):
            _flat(target, target_rows[target_first + c] + target_shift)[:] = tile[:, c]

    def add_to_three(addend, offset, x, x_offset, y, y_offset, z, z_offset):
        """``x += addend``, ``y += addend``, ``z += addend`` on 16 lanes (three distinct vectors)."""
        for array, start in ((x, x_offset), (y, y_offset), (z, z_offset)):
            _flat(array, start)[:] += _flat(addend, offset)

    def store_difference(out, offset, x, x_offset, y, y_offset, z, z_offset):
        """``out = x - y - z`` on 16 lanes (``(x - y) - z``)."""
        _flat(out, offset)[:] = _flat(x, x_offset) - _flat(y, y_offset) - _flat(z, z_offset)

    def add_difference(out, offset, x, x_offset, y, y_offset, z, z_offset):
        """``out += x - y - z`` on 16 lanes (``out + ((x - y) - z)``)."""
        _flat(out, offset)[:] += _flat(x, x_offset) - _flat(y, y_offset) - _flat(z, z_offset)

    def add_difference_and(out, offset, x, x_offset, y, y_offset, z, z_offset, addend, addend_offset):
        """``out += x - y - z + addend`` on 16 lanes (``out + (((x - y) - z) + addend)``)."""
        difference = _flat(x, x_offset) - _flat(y, y_offset) - _flat(z, z_offset)
        _flat(out, offset)[:] += difference + _flat(addend, addend_offset)

else:

    def _rows(context, builder, array_type, array, rows_type, rows, first_row, shift):
        """Pointers to 16 vectors of ``array``: flat ``rows[first_row + i] + shift`` (LLVM i64 values)."""
        rows_data = context.make_array(rows_type)(context, builder, rows).data
        pointers = []
        for i in range(LANES):
            row = builder.load(builder.gep(rows_data, [builder.add(first_row, ir.Constant(first_row.type, i))]))
            row = context.cast(builder, row, rows_type.dtype, types.int64)
            pointers.append(_pointer(context, builder, array_type, array, builder.add(row, shift)))
        return pointers

    def _store_transposed(context, builder, vectors, target_type, target, rows_type, rows, first_row, shift):
        """The 16 ``vectors`` (the tile's rows) transposed in registers, stored as the 16 vectors at
        flat ``rows[first_row + c] + shift`` of ``target``."""
        masks = [ir.Constant(ir.VectorType(ir.IntType(32), LANES), mask) for mask in (_ZIP_LOW, _ZIP_HIGH)]
        for _ in range(4):  # log2(LANES) rounds of the perfect shuffle
            vectors = [
                builder.shuffle_vector(vectors[i], vectors[i + LANES // 2], mask)
                for i in range(LANES // 2)
                for mask in masks
            ]
        targets = _rows(context, builder, target_type, target, rows_type, rows, first_row, shift)
        for vector, pointer in zip(vectors, targets, strict=True):
            builder.store(vector, pointer, align=4)

    @intrinsic
    def transpose_tile(
        typingctx, source, source_rows, first_row, shift, target, target_rows, target_first, target_shift
    ):
        """The tile transpose in registers (the meaning of the pure-Python version above)."""
        if not _same_float(source, target):
            return None

        def codegen(context, builder, signature, args):
            source_type, rows_type, _, _, target_type, target_rows_type, _, _ = signature.args
            first, shift_value, target_first_value, target_shift_value = (
                _int64(context, builder, signature, args, i) for i in (2, 3, 6, 7)
            )
            sources = _rows(context, builder, source_type, args[0], rows_type, args[1], first, shift_value)
            vectors = [builder.load(pointer, align=4) for pointer in sources]
            _store_transposed(
                context,
                builder,
                vectors,
                target_type,
                args[4],
                target_rows_type,
                args[5],
                target_first_value,
                target_shift_value,
            )
            return context.get_dummy_value()

        signature = types.void(source, source_rows, first_row, shift, target, target_rows, target_first, target_shift)
        return signature, codegen

    @intrinsic
    def transpose_values_tile(
        typingctx, x, y, source_rows, first_row, shift, a, b, target, target_rows, target_first, target_shift
    ):
        """The combined tile transpose in registers (the meaning of the pure-Python version above)."""
        if not _same_float(x, y, a, b, target):
            return None

        def codegen(context, builder, signature, args):
            x_type, y_type, rows_type, _, _, a_type, b_type, target_type, target_rows_type, _, _ = signature.args
            first, shift_value, target_first_value, target_shift_value = (
                _int64(context, builder, signature, args, i) for i in (3, 4, 9, 10)
            )
            a_vector = builder.load(_pointer(context, builder, a_type, args[5], shift_value), align=4)
            b_vector = builder.load(_pointer(context, builder, b_type, args[6], shift_value), align=4)
            xs = _rows(context, builder, x_type, args[0], rows_type, args[2], first, shift_value)
            ys = _rows(context, builder, y_type, args[1], rows_type, args[2], first, shift_value)
            vectors = [
                builder.fadd(
                    builder.fmul(a_vector, builder.load(x_pointer, align=4)),
                    builder.fmul(b_vector, builder.load(y_pointer, align=4)),
                )
                for x_pointer, y_pointer in zip(xs, ys, strict=True)
            ]
            _store_transposed(
                context,
                builder,
                vectors,
                target_type,
                args[7],
                target_rows_type,
                args[8],
                target_first_value,
                target_shift_value,
            )
            return context.get_dummy_value()

        signature = types.void(
            x, y, source_rows, first_row, shift, a, b, target, target_rows, target_first, target_shift
        )
        return signature, codegen

    @intrinsic
    def add_to_three(typingctx, addend, offset, x, x_offset, y, y_offset, z, z_offset):
        """``x += addend``, ``y += addend``, ``z += addend`` on 16 lanes (three distinct vectors)."""
        if not _same_float(addend, x, y, z):
            return None

        def codegen(context, builder, signature, args):
            types_ = signature.args
            value = builder.load(_pointer(context, builder, types_[0], args[0], args[1]), align=4)
            for i in (2, 4, 6):
                pointer = _pointer(context, builder, types_[i], args[i], args[i + 1])
                builder.store(builder.fadd(builder.load(pointer, align=4), value), pointer, align=4)
            return context.get_dummy_value()

        return types.void(addend, offset, x, x_offset, y, y_offset, z, z_offset), codegen

    def _difference(accumulate, with_addend):
        """Codegen of ``out (+)= x - y - z (+ addend)`` (arguments: array, offset pairs, ``out`` first)."""

        def codegen(context, builder, signature, args):
            def pointer(i):
                return _pointer(context, builder, signature.args[i], args[i], args[i + 1])

            value = builder.fsub(
                builder.fsub(builder.load(pointer(2), align=4), builder.load(pointer(4), align=4)),
                builder.load(pointer(6), align=4),
            )
            if with_addend:
                value = builder.fadd(value, builder.load(pointer(8), align=4))
            if accumulate:
                value = builder.fadd(builder.load(pointer(0), align=4), value)
            builder.store(value, pointer(0), align=4)
            return context.get_dummy_value()

        return codegen

    def _difference_intrinsic(name, accumulate):
        """The intrinsic ``name(out, offset, x, x_offset, y, y_offset, z, z_offset)``: ``out = x - y - z``,
        or ``out += x - y - z`` if ``accumulate``."""

        def difference(typingctx, out, offset, x, x_offset, y, y_offset, z, z_offset):
            if _same_float(out, x, y, z):
                signature = types.void(out, offset, x, x_offset, y, y_offset, z, z_offset)
                return signature, _difference(accumulate=accumulate, with_addend=False)
            return None

        difference.__name__ = difference.__qualname__ = name
        return intrinsic(difference)

    _store_difference = _difference_intrinsic("store_difference", accumulate=False)
    _add_difference = _difference_intrinsic("add_difference", accumulate=True)

    @intrinsic
    def _add_difference_and(typingctx, out, offset, x, x_offset, y, y_offset, z, z_offset, addend, addend_offset):
        if _same_float(out, x, y, z, addend):
            return types.void(out, offset, x, x_offset, y, y_offset, z, z_offset, addend, addend_offset), _difference(
                accumulate=True, with_addend=True
            )
        return None

    store_difference, add_difference, add_difference_and = _store_difference, _add_difference, _add_difference_and
