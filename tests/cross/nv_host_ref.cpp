// Host-side reference for the engine cross-check (tests/cross/nv-host.test.ts), built by nvcc
// with cuda_fp16.h / cuda_bf16.h. Runs on the CPU: no GPU needed.
//
// Two kinds of op, kept apart by their names:
//   nv.*   NVIDIA's own host emulation paths of the intrinsics (the NV_IF_ELSE_TARGET host
//          branches of cuda_fp16.hpp / cuda_bf16.hpp): __hadd, __hsub, __hmul (float op, then
//          __float2half/__float2bfloat16 RN), the _sat variants (min(max(x, 0), 1) with __hmin /
//          __hmax), __hmin, __hmax, __hmin_nan, __hmax_nan, __hneg, __habs, and the packed x2
//          versions (lane .x = bits [0:15]).
//   emu.*  ops with no host path in CUDA 13 (__hfma, __hfma_sat, __hfma_relu are __device__
//          only) or no intrinsic at all (mixed precision .f32.f16/.f32.bf16), emulated here:
//          fma exactly via TwoSum in double (a*b of two 16-bit floats is exact in a double),
//          rounded to odd at 53 bits, then NVIDIA's host __double2half / __double2bfloat16
//          (round-to-odd then round-to-nearest is correct: Boldo & Melquiond 2008); mixed
//          precision as float ops / fmaf under fesetround (x86 SSE arithmetic and glibc fmaf honour
//          the rounding mode), inputs converted by __half2float / __bfloat162float.
//   naive.* a host fma through float (fmaf, then __float2half): double rounding, to be counted.
//
// Protocol: host_ref_protocol.h.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "host_ref_protocol.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

__half h(u32 bits) {
  __half_raw r;
  r.x = static_cast<unsigned short>(bits);
  return __half(r);
}
__nv_bfloat16 bf(u32 bits) {
  __nv_bfloat16_raw r;
  r.x = static_cast<unsigned short>(bits);
  return __nv_bfloat16(r);
}
u32 bits(__half v) { return static_cast<__half_raw>(v).x; }
u32 bits(__nv_bfloat16 v) { return static_cast<__nv_bfloat16_raw>(v).x; }
__half2 h2(u32 w) { return __halves2half2(h(w & 0xffffu), h(w >> 16)); }
__nv_bfloat162 bf2(u32 w) { return __halves2bfloat162(bf(w & 0xffffu), bf(w >> 16)); }
u32 bits(__half2 v) { return bits(__low2half(v)) | (bits(__high2half(v)) << 16); }
u32 bits(__nv_bfloat162 v) { return bits(__low2bfloat16(v)) | (bits(__high2bfloat16(v)) << 16); }
// a*b + c rounded to odd at 53 bits. p = a*b is exact for 16-bit float inputs; TwoSum gives the
// exact error of s = RN(p + c), so the exact value lies strictly between s and its neighbour on
// err's side when err != 0, and exactly one of the two has an odd last bit.
double fmaRoundedToOdd(double a, double b, double c) {
  const double p = a * b;
  double s = p + c;
  if (!std::isfinite(s)) return s;
  const double bp = s - p;
  const double err = (p - (s - bp)) + (c - bp);
  if (err != 0) {
    std::uint64_t sb;
    std::memcpy(&sb, &s, 8);
    if ((sb & 1u) == 0) s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  }
  return s;
}

// Mixed precision under a rounding mode; the mode is restored to nearest for everything else.
// Operands arrive in instruction order: (a, c) for add/sub, (a, b, c) for fma.
template <typename Convert>
Op mixed(char kind, int mode, Convert toFloat) {
  return [=](u32 x, u32 y, u32 z) {
    const float fa = toFloat(x);
    std::fesetround(mode);
    volatile float r = kind == '+'   ? fa + f32(y)
                       : kind == '-' ? fa - f32(y)
                                     : std::fmaf(fa, toFloat(y), f32(z));
    std::fesetround(FE_TONEAREST);
    return bits(static_cast<float>(r));
  };
}

Ops makeOps() {
  Ops ops;
  // NVIDIA host emulation, f16 and bf16 scalar.
  ops["nv.f16.add"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd(h(a), h(b))); }};
  ops["nv.f16.sub"] = {2, [](u32 a, u32 b, u32) { return bits(__hsub(h(a), h(b))); }};
  ops["nv.f16.mul"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul(h(a), h(b))); }};
  ops["nv.f16.add_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd_sat(h(a), h(b))); }};
  ops["nv.f16.sub_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hsub_sat(h(a), h(b))); }};
  ops["nv.f16.mul_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul_sat(h(a), h(b))); }};
  ops["nv.f16.min"] = {2, [](u32 a, u32 b, u32) { return bits(__hmin(h(a), h(b))); }};
  ops["nv.f16.max"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax(h(a), h(b))); }};
  ops["nv.f16.min_nan"] = {2, [](u32 a, u32 b, u32) { return bits(__hmin_nan(h(a), h(b))); }};
  ops["nv.f16.max_nan"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax_nan(h(a), h(b))); }};
  ops["nv.f16.neg"] = {1, [](u32 a, u32, u32) { return bits(__hneg(h(a))); }};
  ops["nv.f16.abs"] = {1, [](u32 a, u32, u32) { return bits(__habs(h(a))); }};
  ops["nv.bf16.add"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd(bf(a), bf(b))); }};
  ops["nv.bf16.sub"] = {2, [](u32 a, u32 b, u32) { return bits(__hsub(bf(a), bf(b))); }};
  ops["nv.bf16.mul"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul(bf(a), bf(b))); }};
  ops["nv.bf16.add_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd_sat(bf(a), bf(b))); }};
  ops["nv.bf16.sub_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hsub_sat(bf(a), bf(b))); }};
  ops["nv.bf16.mul_sat"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul_sat(bf(a), bf(b))); }};
  ops["nv.bf16.min"] = {2, [](u32 a, u32 b, u32) { return bits(__hmin(bf(a), bf(b))); }};
  ops["nv.bf16.max"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax(bf(a), bf(b))); }};
  ops["nv.bf16.min_nan"] = {2, [](u32 a, u32 b, u32) { return bits(__hmin_nan(bf(a), bf(b))); }};
  ops["nv.bf16.max_nan"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax_nan(bf(a), bf(b))); }};
  ops["nv.bf16.neg"] = {1, [](u32 a, u32, u32) { return bits(__hneg(bf(a))); }};
  ops["nv.bf16.abs"] = {1, [](u32 a, u32, u32) { return bits(__habs(bf(a))); }};
  // Packed: checks the lane order (lane 0 = .x = low half) as well as the lane op.
  ops["nv.f16x2.add"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd2(h2(a), h2(b))); }};
  ops["nv.f16x2.mul"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul2(h2(a), h2(b))); }};
  ops["nv.f16x2.min"] = {2, [](u32 a, u32 b, u32) { return bits(__hmin2(h2(a), h2(b))); }};
  ops["nv.f16x2.max_nan"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax2_nan(h2(a), h2(b))); }};
  ops["nv.f16x2.neg"] = {1, [](u32 a, u32, u32) { return bits(__hneg2(h2(a))); }};
  ops["nv.bf16x2.add"] = {2, [](u32 a, u32 b, u32) { return bits(__hadd2(bf2(a), bf2(b))); }};
  ops["nv.bf16x2.mul"] = {2, [](u32 a, u32 b, u32) { return bits(__hmul2(bf2(a), bf2(b))); }};
  ops["nv.bf16x2.max"] = {2, [](u32 a, u32 b, u32) { return bits(__hmax2(bf2(a), bf2(b))); }};
  ops["nv.bf16x2.abs"] = {1, [](u32 a, u32, u32) { return bits(__habs2(bf2(a))); }};
  // Emulated fma (no host __hfma in CUDA 13).
  ops["emu.f16.fma"] = {3, [](u32 a, u32 b, u32 c) {
    const double r = fmaRoundedToOdd(__half2float(h(a)), __half2float(h(b)), __half2float(h(c)));
    return bits(__double2half(r));
  }};
  ops["emu.f16.fma_sat"] = {3, [](u32 a, u32 b, u32 c) {
    const double r = fmaRoundedToOdd(__half2float(h(a)), __half2float(h(b)), __half2float(h(c)));
    // The clamp NVIDIA's host __hadd_sat uses.
    return bits(__hmin(__hmax(__double2half(r), h(0x0000)), h(0x3c00)));
  }};
  ops["emu.bf16.fma"] = {3, [](u32 a, u32 b, u32 c) {
    const double r =
        fmaRoundedToOdd(__bfloat162float(bf(a)), __bfloat162float(bf(b)), __bfloat162float(bf(c)));
    return bits(__double2bfloat16(r));
  }};
  // What a naive host fma would do: fmaf rounds to float, then __float2half / __float2bfloat16
  // round again. Not a reference: the test counts how often this double rounding is off.
  ops["naive.f16.fma"] = {3, [](u32 a, u32 b, u32 c) {
    return bits(__float2half(std::fmaf(__half2float(h(a)), __half2float(h(b)), __half2float(h(c)))));
  }};
  ops["naive.bf16.fma"] = {3, [](u32 a, u32 b, u32 c) {
    const float r = std::fmaf(__bfloat162float(bf(a)), __bfloat162float(bf(b)), __bfloat162float(bf(c)));
    return bits(__float2bfloat16(r));
  }};
  // Mixed precision, every rounding mode.
  const std::pair<const char*, int> modes[] = {
      {"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD}, {"rp", FE_UPWARD}};
  auto fromHalf = [](u32 x) { return __half2float(h(x)); };
  auto fromBf16 = [](u32 x) { return __bfloat162float(bf(x)); };
  for (const auto& [name, mode] : modes) {
    const std::string m = name;
    ops["emu.f32f16.add." + m] = {2, mixed('+', mode, fromHalf)};
    ops["emu.f32f16.sub." + m] = {2, mixed('-', mode, fromHalf)};
    ops["emu.f32f16.fma." + m] = {3, mixed('*', mode, fromHalf)};
    ops["emu.f32bf16.add." + m] = {2, mixed('+', mode, fromBf16)};
    ops["emu.f32bf16.sub." + m] = {2, mixed('-', mode, fromBf16)};
    ops["emu.f32bf16.fma." + m] = {3, mixed('*', mode, fromBf16)};
  }
  return ops;
}

}  // namespace

int main(int argc, char** argv) { return serve(argc, argv, makeOps()); }
