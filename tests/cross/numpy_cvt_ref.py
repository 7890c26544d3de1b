"""numpy reference for the cvt cross-check (tests/cross/numpy-cvt.test.ts), in the batched
protocol of numpy_ref.py ("<op> <n>", one line per operand of n 8-hex-digit values; one line of
n results). numpy's astype between float16, float32 and float64 rounds to nearest even (IEEE 754
convertFormat) and widens exactly; it keeps NaN payloads and signs, and does not saturate.
  f32_to_f16   float32 -> float16
  f64_to_f16   float64 (two operands: high and low 32 bits) -> float16
  f64_to_f32   float64 -> float32
  f16_to_f32   float16 -> float32
"""

import sys

import numpy as np


def read(n):
    line = sys.stdin.readline().strip()
    return np.frombuffer(bytes.fromhex(line), dtype=">u4").astype(np.uint32)


def f64_of(hi, lo):
    return ((hi.astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)).view(np.float64)


def main():
    with np.errstate(all="ignore"):
        for header in sys.stdin:
            header = header.strip()
            if not header:
                continue
            op, n = header.split()
            n = int(n)
            if op == "f32_to_f16":
                out = read(n).view(np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)
            elif op == "f64_to_f16":
                hi, lo = read(n), read(n)
                out = f64_of(hi, lo).astype(np.float16).view(np.uint16).astype(np.uint32)
            elif op == "f64_to_f32":
                hi, lo = read(n), read(n)
                out = f64_of(hi, lo).astype(np.float32).view(np.uint32)
            elif op == "f16_to_f32":
                out = (read(n) & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
            else:
                raise SystemExit(f"unknown op {op}")
            sys.stdout.write(out.astype(">u4").tobytes().hex() + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
