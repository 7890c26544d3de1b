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
// Protocol (as nv_host_ref.cpp): "<op> <n>", then one line per operand of n values, 8 hex
// digits each; answers one line of n results, 8 hex digits each.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

namespace {

using u32 = std::uint32_t;

float f32(u32 b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
u32 bits(float f) {
  u32 b;
  std::memcpy(&b, &f, 4);
  return b;
}
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

struct Entry {
  int arity;
  std::function<u32(u32, u32)> fn;
};

std::map<std::string, Entry> makeOps() {
  std::map<std::string, Entry> ops;
  const std::pair<const char*, __nv_fp8_interpretation_t> fp8[] = {{"e4m3", __NV_E4M3},
                                                                   {"e5m2", __NV_E5M2}};
  for (auto [name, kind] : fp8) {
    const std::string p = std::string("fp8.") + name;
    ops[p + ".from_f32"] = {1, [kind](u32 a, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_float_to_fp8(f32(a), __NV_SATFINITE, kind));
                            }};
    ops[p + ".from_f16"] = {1, [kind](u32 a, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_halfraw_to_fp8(hraw(a), __NV_SATFINITE, kind));
                            }};
    ops[p + ".to_f16"] = {1, [kind](u32 a, u32) {
                            return static_cast<u32>(
                                __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(a), kind).x);
                          }};
  }
  const std::pair<const char*, __nv_fp6_interpretation_t> fp6[] = {{"e2m3", __NV_E2M3},
                                                                   {"e3m2", __NV_E3M2}};
  for (auto [name, kind] : fp6) {
    const std::string p = std::string("fp6.") + name;
    ops[p + ".from_f32"] = {1, [kind](u32 a, u32) {
                              return static_cast<u32>(
                                  __nv_cvt_float_to_fp6(f32(a), kind, cudaRoundNearest));
                            }};
    ops[p + ".to_f16"] = {1, [kind](u32 a, u32) {
                            return static_cast<u32>(
                                __nv_cvt_fp6_to_halfraw(static_cast<__nv_fp6_storage_t>(a), kind).x);
                          }};
  }
  ops["fp4.e2m1.from_f32"] = {1, [](u32 a, u32) {
                                return static_cast<u32>(
                                    __nv_cvt_float_to_fp4(f32(a), __NV_E2M1, cudaRoundNearest));
                              }};
  ops["fp4.e2m1.to_f16"] = {1, [](u32 a, u32) {
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
      ops["e8m0.from_f32" + suffix] = {1, [mode, sat](u32 a, u32) {
                                         return static_cast<u32>(
                                             __nv_cvt_float_to_e8m0(f32(a), sat, mode));
                                       }};
      ops["e8m0.from_bf16" + suffix] = {1, [mode, sat](u32 a, u32) {
                                          return static_cast<u32>(
                                              __nv_cvt_bfloat16raw_to_e8m0(bfraw(a), sat, mode));
                                        }};
    }
  }
  ops["e8m0.to_bf16"] = {1, [](u32 a, u32) {
                           return static_cast<u32>(
                               __nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(a)).x);
                         }};
  ops["f16.from_f32.rn"] = {1, [](u32 a, u32) { return hbits(__float2half_rn(f32(a))); }};
  ops["f16.from_f32.rz"] = {1, [](u32 a, u32) { return hbits(__float2half_rz(f32(a))); }};
  ops["f16.from_f32.rd"] = {1, [](u32 a, u32) { return hbits(__float2half_rd(f32(a))); }};
  ops["f16.from_f32.ru"] = {1, [](u32 a, u32) { return hbits(__float2half_ru(f32(a))); }};
  ops["bf16.from_f32.rn"] = {1, [](u32 a, u32) { return bfbits(__float2bfloat16_rn(f32(a))); }};
  ops["bf16.from_f32.rz"] = {1, [](u32 a, u32) { return bfbits(__float2bfloat16_rz(f32(a))); }};
  ops["bf16.from_f32.rd"] = {1, [](u32 a, u32) { return bfbits(__float2bfloat16_rd(f32(a))); }};
  ops["bf16.from_f32.ru"] = {1, [](u32 a, u32) { return bfbits(__float2bfloat16_ru(f32(a))); }};
  ops["f16.to_f32"] = {1, [](u32 a, u32) { return bits(__half2float(__half(hraw(a)))); }};
  ops["bf16.to_f32"] = {1, [](u32 a, u32) {
                          return bits(__bfloat162float(__nv_bfloat16(bfraw(a))));
                        }};
  ops["f16.from_f64"] = {2, [](u32 hi, u32 lo) { return hbits(__double2half(f64(hi, lo))); }};
  ops["bf16.from_f64"] = {2, [](u32 hi, u32 lo) {
                            return bfbits(__double2bfloat16(f64(hi, lo)));
                          }};
  return ops;
}

std::vector<u32> readLine(std::size_t n) {
  std::string line;
  std::getline(std::cin, line);
  std::vector<u32> values(n);
  for (std::size_t i = 0; i < n; i++)
    values[i] = static_cast<u32>(std::stoul(line.substr(i * 8, 8), nullptr, 16));
  return values;
}

}  // namespace

int main() {
  const auto ops = makeOps();
  std::string header;
  while (std::getline(std::cin, header)) {
    if (header.empty()) continue;
    const auto space = header.find(' ');
    const std::string op = header.substr(0, space);
    const std::size_t n = std::stoul(header.substr(space + 1));
    const auto it = ops.find(op);
    if (it == ops.end()) {
      std::cerr << "unknown op " << op << "\n";
      return 2;
    }
    std::vector<std::vector<u32>> operands;
    for (int k = 0; k < it->second.arity; k++) operands.push_back(readLine(n));
    std::string out(n * 8, '0');
    char buf[9];
    for (std::size_t i = 0; i < n; i++) {
      const u32 r = it->second.fn(operands[0][i], it->second.arity > 1 ? operands[1][i] : 0);
      std::snprintf(buf, sizeof buf, "%08x", r);
      std::memcpy(&out[i * 8], buf, 8);
    }
    std::cout << out << "\n";
  }
  return 0;
}
