// Host-side block quantization for the cross-check (tests/cross/nv-block-scale-host.test.ts):
// issue 26's scale rules written with NVIDIA's own host conversions (cuda_fp8.h, cuda_fp6.h,
// cuda_fp4.h) and the CPU's IEEE binary32 division and multiplication, built by nvcc, run on
// the CPU (no GPU). OCP's floor(log2 amax) is frexpf's exponent here, not a cvt.
//
//   amax   = max |x_i|
//   ocp    e = clamp(floor(log2 amax) - emax_elem, -127, 127), -127 for amax = 0
//   rp/rz  scale = __nv_cvt_float_to_e8m0(amax / max_elem, SATFINITE, RoundPosInf/RoundZero)
//   MX     x_i' = x_i * 2^-e; element = host conversion of x_i' (SATFINITE / to nearest)
//   nvfp4  g = tensorAmax / 2688 (1 where 0); s = e4m3(amax / 6 / g); q = s * g;
//          x_i' = x_i / q, or copysign(0, x_i) where q == 0; element = e2m1(x_i')
//
// Protocol: one block per line, "<scheme> <rule> <tensorAmax: 8 hex digits, or -> <n> <n values
// of 8 hex digits, space-separated>"; the answer is one line, "<scale> <global> <x_0'> …
// <x_n-1'> <element_0> … <element_n-1>", each as 8 hex digits (global 00000000 for MX).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

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

struct Scheme {
  const char* name;
  const char* element;
  float maxElem;
  int emaxElem;
};

const Scheme SCHEMES[] = {
    {"mxfp8-e4m3", "e4m3", 448.0f, 8}, {"mxfp8-e5m2", "e5m2", 57344.0f, 15},
    {"mxfp6-e3m2", "e3m2", 28.0f, 4},  {"mxfp6-e2m3", "e2m3", 7.5f, 2},
    {"mxfp4", "e2m1", 6.0f, 2},        {"nvfp4", "e2m1", 6.0f, 2},
};

u32 convert(const std::string& element, float x) {
  if (element == "e4m3") return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
  if (element == "e5m2") return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
  if (element == "e3m2") return __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest);
  if (element == "e2m3") return __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest);
  return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
}

void hex(std::string& out, u32 v) {
  char buf[10];
  std::snprintf(buf, sizeof buf, " %08x", v);
  out += buf;
}

bool answer(const std::string& line, std::string& out) {
  std::istringstream in(line);
  std::string schemeName, rule, tensor;
  std::size_t n = 0;
  if (!(in >> schemeName >> rule >> tensor >> n)) return false;
  const Scheme* scheme = nullptr;
  for (const Scheme& s : SCHEMES)
    if (schemeName == s.name) scheme = &s;
  if (!scheme) return false;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; i++) {
    std::string h;
    if (!(in >> h)) return false;
    x[i] = f32(static_cast<u32>(std::stoul(h, nullptr, 16)));
  }
  float amax = 0.0f;
  for (float v : x) amax = std::fabs(v) > amax ? std::fabs(v) : amax;

  u32 scale = 0;
  float global = 0.0f;
  std::vector<float> scaled(n);
  if (rule == "nvfp4") {
    const float dividend = tensor == "-" ? amax : f32(static_cast<u32>(std::stoul(tensor, nullptr, 16)));
    global = dividend / 2688.0f;
    if (global == 0.0f) global = 1.0f;
    const float t1 = amax / 6.0f;
    const float t2 = t1 / global;
    scale = __nv_cvt_float_to_fp8(t2, __NV_SATFINITE, __NV_E4M3);
    const float s = __half2float(__half(__nv_cvt_fp8_to_halfraw(scale, __NV_E4M3)));
    const float q = s * global;
    for (std::size_t i = 0; i < n; i++) scaled[i] = q == 0.0f ? std::copysign(0.0f, x[i]) : x[i] / q;
  } else {
    int e;
    if (rule == "ocp") {
      int exponent = 0;
      std::frexp(amax, &exponent);  // amax = m × 2^exponent, m in [0.5, 1)
      e = amax == 0.0f ? -127 : exponent - 1 - scheme->emaxElem;
      e = e < -127 ? -127 : e > 127 ? 127 : e;
    } else {
      const float q = amax / scheme->maxElem;
      const u32 biased = __nv_cvt_float_to_e8m0(q, __NV_SATFINITE,
                                                rule == "rp" ? cudaRoundPosInf : cudaRoundZero);
      e = static_cast<int>(biased) - 127;
    }
    scale = static_cast<u32>(e + 127);
    const float reciprocal = std::ldexp(1.0f, -e);
    for (std::size_t i = 0; i < n; i++) scaled[i] = x[i] * reciprocal;
  }
  out.clear();
  hex(out, scale);
  hex(out, rule == "nvfp4" ? bits(global) : 0u);
  for (float v : scaled) hex(out, bits(v));
  for (float v : scaled) hex(out, convert(scheme->element, v));
  out.erase(0, 1);
  return true;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line, out;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    if (!answer(line, out)) {
      std::cerr << "malformed request: " << line << "\n";
      return 2;
    }
    std::cout << out << "\n";
  }
  return 0;
}
