// Host-side reference for the cvt cross-check (tests/cross/nv-cvt-host.test.ts): NVIDIA's own
// host conversions of cuda_fp8.h, cuda_fp6.h, cuda_fp4.h, cuda_bf16.h and cuda_fp16.h, built
// by nvcc, run on the CPU (no GPU). One element per value:
//   fp8.{e4m3,e5m2}.from_f32 / .from_f16   __nv_cvt_float_to_fp8 / __nv_cvt_halfraw_to_fp8, SATFINITE
//   fp8.{e4m3,e5m2}.to_f16                 __nv_cvt_fp8_to_halfraw
//   fp6.{e2m3,e3m2}.from_f32 / .to_f16     __nv_cvt_float_to_fp6 (RN) / __nv_cvt_fp6_to_halfraw
//   fp4.e2m1.from_f32 / .to_f16            __nv_cvt_float_to_fp4 (RN) / __nv_cvt_fp4_to_halfraw
//   e8m0.from_{f32,bf16}.{rz,rp}.{sat,nosat}  __nv_cvt_float_to_e8m0 / __nv_cvt_bfloat16raw_to_e8m0
//   e8m0.to_bf16                           __nv_cvt_e8m0_to_bf16raw
//   {f16,bf16}.from_f32.{rn,rz,rd,ru}      __float2half_r* / __float2bfloat16_r*
//   {f16,bf16}.to_f32                      __half2float / __bfloat162float
//   {f16,bf16}.from_f64                    __double2half / __double2bfloat16 (two operands: the
//                                          high and the low 32 bits of the double)
// Protocol: host_ref_protocol.h.
#include <cstdint>
#include <cstring>
#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include "host_ref_protocol.h"

namespace {
double f64(u32 hi, u32 lo) {
  const std::uint64_t b = (static_cast<std::uint64_t>(hi) << 32) | lo;
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
__half_raw hraw(u32 b) {
  __half_raw r;
  r.x = static_cast<unsigned short>(b);
  return r;
}
__nv_bfloat16_raw bfraw(u32 b) {
  __nv_bfloat16_raw r;
  r.x = static_cast<unsigned short>(b);
  return r;
}
u32 hbits(__half v) { return static_cast<__half_raw>(v).x; }
u32 bfbits(__nv_bfloat16 v) { return static_cast<__nv_bfloat16_raw>(v).x; }

Ops makeOps() {
  Ops ops;
  const std::pair<const char*, __nv_fp8_interpretation_t> fp8[] = {{"e4m3", __NV_E4M3},
                                                                   {"e5m2", __NV_E5M2}};
  for (auto [name, kind] : fp8) {
    const std::string p = std::string("fp8.") + name;
    ops[p + ".from_f32"] = {1, [kind](u32 a, u32, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_float_to_fp8(f32(a), __NV_SATFINITE, kind));
                            }};
    ops[p + ".from_f16"] = {1, [kind](u32 a, u32, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_halfraw_to_fp8(hraw(a), __NV_SATFINITE, kind));
                            }};
    ops[p + ".to_f16"] = {1, [kind](u32 a, u32, u32) {
                            return static_cast<u32>(
                                __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(a), kind).x);
                          }};
  }
  const std::pair<const char*, __nv_fp6_interpretation_t> fp6[] = {{"e2m3", __NV_E2M3},
                                                                   {"e3m2", __NV_E3M2}};
  for (auto [name, kind] : fp6) {
    const std::string p = std::string("fp6.") + name;
    ops[p + ".from_f32"] = {1, [kind](u32 a, u32, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_float_to_fp6(f32(a), kind, cudaRoundNearest));
                            }};
    ops[p + ".to_f16"] = {1, [kind](u32 a, u32, u32) {
                            return static_cast<u32>(
                                __nv_cvt_fp6_to_halfraw(static_cast<__nv_fp6_storage_t>(a), kind).x);
                          }};
  }
  ops["fp4.e2m1.from_f32"] = {1, [](u32 a, u32, u32) {
                                return static_cast<u32>(
                                    __nv_cvt_float_to_fp4(f32(a), __NV_E2M1, cudaRoundNearest));
                              }};
  ops["fp4.e2m1.to_f16"] = {1, [](u32 a, u32, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(a), __NV_E2M1).x);
                            }};
  const std::pair<const char*, cudaRoundMode> modes[] = {{"rz", cudaRoundZero},
                                                          {"rp", cudaRoundPosInf}};
  const std::pair<const char*, __nv_saturation_t> sats[] = {{"sat", __NV_SATFINITE},
                                                             {"nosat", __NV_NOSAT}};
  for (auto [mname, mode] : modes) {
    for (auto [sname, sat] : sats) {
      const std::string suffix = std::string(".") + mname + "." + sname;
      ops["e8m0.from_f32" + suffix] = {1, [mode, sat](u32 a, u32, u32) {
                                         return static_cast<u32>(
                                             __nv_cvt_float_to_e8m0(f32(a), sat, mode));
                                       }};
      ops["e8m0.from_bf16" + suffix] = {1, [mode, sat](u32 a, u32, u32) {
                                          return static_cast<u32>(
                                              __nv_cvt_bfloat16raw_to_e8m0(bfraw(a), sat, mode));
                                        }};
    }
  }
  ops["e8m0.to_bf16"] = {1, [](u32 a, u32, u32) {
                           return static_cast<u32>(
                               __nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(a)).x);
                         }};
  ops["f16.from_f32.rn"] = {1, [](u32 a, u32, u32) { return hbits(__float2half_rn(f32(a))); }};
  ops["f16.from_f32.rz"] = {1, [](u32 a, u32, u32) { return hbits(__float2half_rz(f32(a))); }};
  ops["f16.from_f32.rd"] = {1, [](u32 a, u32, u32) { return hbits(__float2half_rd(f32(a))); }};
  ops["f16.from_f32.ru"] = {1, [](u32 a, u32, u32) { return hbits(__float2half_ru(f32(a))); }};
  ops["bf16.from_f32.rn"] = {1, [](u32 a, u32, u32) { return bfbits(__float2bfloat16_rn(f32(a))); }};
  ops["bf16.from_f32.rz"] = {1, [](u32 a, u32, u32) { return bfbits(__float2bfloat16_rz(f32(a))); }};
  ops["bf16.from_f32.rd"] = {1, [](u32 a, u32, u32) { return bfbits(__float2bfloat16_rd(f32(a))); }};
  ops["bf16.from_f32.ru"] = {1, [](u32 a, u32, u32) { return bfbits(__float2bfloat16_ru(f32(a))); }};
  ops["f16.to_f32"] = {1, [](u32 a, u32, u32) { return bits(__half2float(__half(hraw(a)))); }};
  ops["bf16.to_f32"] = {1, [](u32 a, u32, u32) {
                          return bits(__bfloat162float(__nv_bfloat16(bfraw(a))));
                        }};
  ops["f16.from_f64"] = {2, [](u32 hi, u32 lo, u32) { return hbits(__double2half(f64(hi, lo))); }};
  ops["bf16.from_f64"] = {2, [](u32 hi, u32 lo, u32) {
                            return bfbits(__double2bfloat16(f64(hi, lo)));
                          }};
  return ops;
}

}  // namespace

int main(int argc, char** argv) { return serve(argc, argv, makeOps()); }
