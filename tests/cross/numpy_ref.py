"""numpy reference for the engine cross-check (tests/cross/numpy.test.ts).

Batched protocol on stdin/stdout, so one process answers hundreds of thousands of vectors:
  request:  a line "<op> <n>", then one line per operand, each n values as 8 hex digits
            (register bits, unsigned; 16-bit values in the low half);
  response: one line per request, n results as 8 hex digits (16-bit results in the low half).

Why each op is a correctly rounded (RN, ties to even) reference:
  f16.add/sub/mul   numpy float16 arithmetic. Whether numpy computes natively or in float32 and
                    rounds back, the result is correctly rounded: float32 has p = 24 >= 2*11 + 2,
                    and for +, -, * of two binary16 values double rounding through such a format
                    is innocuous (Figueroa 1995).
  f16.fma           no numpy primitive. The exact value a*b + c is computed with Python integers,
                    rounded to ODD at 24 bits (exact in float32), then converted by numpy
                    float32 -> float16. Round-to-odd at p + 2 bits followed by round-to-nearest
                    gives the correctly rounded result (Boldo & Melquiond 2008).
  f16.neg/abs       numpy negative/absolute (sign-bit operations; NaN payloads kept).
  f16.to_f32        numpy float16 -> float32 (exact).
  f32f16.add/sub    float32(float16 a) +/- c in numpy float32: one IEEE operation on exact inputs.
  f32f16.fma        float32(a) * float32(b) is exact in float32 (22-bit product, exponent within
                    range), so float32 a*b + c rounds once.
  f32bf16.add/sub   bf16 -> float32 is the bit pattern shifted left by 16; then as above.
  f32bf16.fma       bf16 products can leave the float32 range, so: exact integers, round to odd
                    at 53 bits, numpy float64 -> float32 (one hardware conversion).
"""

import math
import sys

import numpy as np


def read_operands(stream, count, n):
    rows = []
    for _ in range(count):
        line = stream.readline().strip()
        values = np.frombuffer(bytes.fromhex(line), dtype=">u4").astype(np.uint32) if n else np.zeros(0, np.uint32)
        if values.size != n:
            raise ValueError(f"expected {n} values, got {values.size}")
        rows.append(values)
    return rows


def f16(bits):
    return bits.astype(np.uint16).view(np.float16)


def f32(bits):
    return bits.astype(np.uint32).view(np.float32)


def bf16_as_f32(bits):
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def bits_of(values):
    if values.dtype == np.float16:
        return values.view(np.uint16).astype(np.uint32)
    return values.astype(np.float32).view(np.uint32)


# --- exact integer arithmetic for fma -------------------------------------------------------

FORMATS = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23)}


def split(bits, fmt):
    """(negative, M, E, special) with value (-1)^negative * M * 2^E; special for inf/NaN."""
    exp_bits, man_bits = FORMATS[fmt]
    width = 1 + exp_bits + man_bits
    bias = (1 << (exp_bits - 1)) - 1
    negative = (bits >> (width - 1)) & 1 == 1
    e = (bits >> man_bits) & ((1 << exp_bits) - 1)
    m = bits & ((1 << man_bits) - 1)
    if e == (1 << exp_bits) - 1:
        return negative, 0, 0, True
    if e == 0:
        return negative, m, 1 - bias - man_bits, False
    return negative, m | (1 << man_bits), e - bias - man_bits, False


def round_to_odd(n, e, p):
    """n * 2^e (n > 0) rounded to odd at p significant bits, as a float (exact in a double)."""
    extra = n.bit_length() - p
    if extra <= 0:
        return math.ldexp(float(n), e)
    q = n >> extra
    if n & ((1 << extra) - 1):
        q |= 1
    return math.ldexp(float(q), e + extra)


def fma_rounded_to_odd(a, b, c, src, dst, p):
    """The exact a*b + c rounded to odd at p bits as a double; inf/NaN/zero cases per IEEE."""
    sa, ma, ea, xa = split(a, src)
    sb, mb, eb, xb = split(b, src)
    sc, mc, ec, xc = split(c, dst)
    if xa or xb or xc:
        return None  # caller uses float64 arithmetic: only inf/NaN can come out, exactly as fma
    sp = sa != sb
    mp, ep = ma * mb, ea + eb
    if mp == 0 and mc == 0:
        return -0.0 if (sp and sc) else 0.0
    e0 = min(ep, ec) if mp and mc else (ep if mp else ec)
    n = (-mp if sp else mp) * (1 << (ep - e0)) if mp else 0
    n += (-mc if sc else mc) * (1 << (ec - e0)) if mc else 0
    if n == 0:
        return 0.0  # exact cancellation gives +0 under round-to-nearest
    r = round_to_odd(abs(n), e0, p)
    return -r if n < 0 else r


def fma_batch(a, b, c, src, dst):
    p = 24 if dst == "f16" else 53
    out = np.empty(a.size, dtype=np.float64)
    to64 = {"f16": lambda x: f16(x).astype(np.float64), "bf16": lambda x: bf16_as_f32(x).astype(np.float64), "f32": lambda x: f32(x).astype(np.float64)}
    a64, b64, c64 = to64[src](a), to64[src](b), to64[dst if dst == "f32" else src](c)
    for i in range(a.size):
        r = fma_rounded_to_odd(int(a[i]), int(b[i]), int(c[i]), src, dst, p)
        out[i] = a64[i] * b64[i] + c64[i] if r is None else r
    if dst == "f16":
        return out.astype(np.float32).astype(np.float16)  # float64 -> float32 is exact here
    return out.astype(np.float32)


# --- ops ------------------------------------------------------------------------------------

OPS = {
    "f16.add": (2, lambda a, b: f16(a) + f16(b)),
    "f16.sub": (2, lambda a, b: f16(a) - f16(b)),
    "f16.mul": (2, lambda a, b: f16(a) * f16(b)),
    "f16.fma": (3, lambda a, b, c: fma_batch(a, b, c, "f16", "f16")),
    "f16.neg": (1, lambda a: np.negative(f16(a))),
    "f16.abs": (1, lambda a: np.absolute(f16(a))),
    "f16.to_f32": (1, lambda a: f16(a).astype(np.float32)),
    "f32f16.add": (2, lambda a, c: f16(a).astype(np.float32) + f32(c)),
    "f32f16.sub": (2, lambda a, c: f16(a).astype(np.float32) - f32(c)),
    "f32f16.fma": (3, lambda a, b, c: f16(a).astype(np.float32) * f16(b).astype(np.float32) + f32(c)),
    "f32bf16.add": (2, lambda a, c: bf16_as_f32(a) + f32(c)),
    "f32bf16.sub": (2, lambda a, c: bf16_as_f32(a) - f32(c)),
    "f32bf16.fma": (3, lambda a, b, c: fma_batch(a, b, c, "bf16", "f32")),
}


def main():
    np.seterr(all="ignore")
    out = sys.stdout
    while True:
        header = sys.stdin.readline()
        if not header:
            break
        if not header.strip():
            continue
        name, n_text = header.split()
        if name not in OPS:
            raise ValueError(f"unknown op {name}")
        arity, fn = OPS[name]
        n = int(n_text)
        result = bits_of(np.asarray(fn(*read_operands(sys.stdin, arity, n))))
        out.write(result.astype(">u4").tobytes().hex() + "\n")
        out.flush()


if __name__ == "__main__":
    main()
