// Device side of the cvt capture: input generators and kernels of the float-to-float cvt forms.
// Every function here mirrors one in hw/lib/cvt-plan.ts (inputs) and hw/lib/cvt-expected.ts
// (result words of the row hash); the CPU recomputes the same inputs and hashes from those, so
// the two must change together (`capture --selftest` compares them input for input).
#pragma once
#include <cstdint>
#include <vector>

#include "harness.cuh"

// ---- f64 sample (hw/lib/cvt-plan.ts f64SampleBits) ----
__host__ __device__ __forceinline__ uint64_t f64Edge(uint32_t i) {
#ifdef __CUDA_ARCH__
  return kF64Edges[i];
#else
  return kHostF64Edges[i];
#endif
}

// The exponent steered to -170 … 149 in three samples of four; the significand cut at bit p
// with a tie below it (mode 2) or nothing (mode 3).
__host__ __device__ __forceinline__ uint64_t f64SampleBits(uint32_t seed, uint32_t index) {
  uint32_t s = mix32(index ^ mix32(seed));
  uint32_t w[4];
  for (int j = 0; j < 4; j++) w[j] = mix32(s + (uint32_t)(j + 1) * 0x9e3779b9u);
  uint64_t bits = ((uint64_t)w[0] << 32) | w[1];
  const uint32_t mode = w[3] & 3u;
  if (mode != 0) {
    const uint64_t field = 1023u - 170u + (w[2] % 320u);
    bits = (bits & 0x800fffffffffffffull) | (field << 52);
  }
  if (mode >= 2) {
    const uint32_t p = 1u + ((w[2] >> 16) % 52u);
    bits &= ~0ull << p;
    if (mode == 2) bits |= 1ull << (p - 1);
  }
  return bits;
}

// Registers a (up to 64 bits) and b for input `index` of a cvt section.
template <class F> __host__ __device__ __forceinline__ void cvtInputsAt(int generator, uint32_t index, uint32_t seed, uint64_t &a, uint32_t &b) {
  b = 0;
  switch (generator) {
    case GEN_WORDS_XOR:
      a = index;
      b = index ^ kCvtBXor;
      break;
    case GEN_F64_SAMPLE:
      a = index < kF64EdgeCount ? f64Edge(index) : f64SampleBits(seed, index);
      break;
    default:  // GEN_ALL (16-bit a), GEN_WORDS (32-bit a)
      a = index;
      break;
  }
}

// ---- kernels ----
template <class F> __global__ void cvtFullKernel(int generator, uint32_t first, uint32_t count, uint32_t seed, void *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint64_t a;
  uint32_t b;
  cvtInputsAt<F>(generator, first + i, seed, a, b);
  const uint64_t d = F::eval(a, b);
  if (F::kResultBits == 16)
    static_cast<uint16_t *>(out)[i] = (uint16_t)d;
  else if (F::kResultBits == 32)
    static_cast<uint32_t *>(out)[i] = (uint32_t)d;
  else
    static_cast<uint64_t *>(out)[i] = d;
}

// One thread per row: the row's 65,536 results in column order through the row hash; a 64-bit
// result is two words, low then high (hw/lib/cvt-expected.ts resultWords).
template <class F> __global__ void cvtHashKernel(int generator, uint32_t firstRow, uint32_t rows, uint32_t seed, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  uint32_t base = (firstRow + i) * kRowLength;
  uint32_t lo = kRowHashSeedLo, hi = kRowHashSeedHi;
  for (uint32_t col = 0; col < kRowLength; col++) {
    uint64_t a;
    uint32_t b;
    cvtInputsAt<F>(generator, base + col, seed, a, b);
    const uint64_t d = F::eval(a, b);
    lo = hashStep(lo, (uint32_t)d);
    hi = hashStep(hi, (uint32_t)d);
    if (F::kResultBits == 64) {
      lo = hashStep(lo, (uint32_t)(d >> 32));
      hi = hashStep(hi, (uint32_t)(d >> 32));
    }
  }
  const uint32_t words = F::kResultBits == 64 ? 2 * kRowLength : kRowLength;
  out[2 * i] = hashFinish(lo, words);
  out[2 * i + 1] = hashFinish(hi, words);
}

// Host copy of the input generator, for `capture --selftest`.
template <class F> void hostCvtInputs(int generator, uint32_t index, uint32_t seed, uint64_t regs[3]) {
  uint64_t a;
  uint32_t b;
  cvtInputsAt<F>(generator, index, seed, a, b);
  regs[0] = a;
  regs[1] = b;
  regs[2] = 0;
}

// Runs one request of cvt form F on the current device and appends the little-endian bytes to out.
template <class F> void runCvtSection(const RunRequest &req, std::vector<uint8_t> &out) {
  const bool full = req.layout == LAYOUT_FULL || req.rowDump;
  const uint32_t first = req.rowDump ? req.first * kRowLength : req.first;
  const uint32_t count = req.rowDump ? kRowLength : req.count;
  const size_t bytes = full ? (size_t)count * (F::kResultBits / 8) : (size_t)count * 8;
  void *device = nullptr;
  checkCuda(cudaMalloc(&device, bytes), "cudaMalloc");
  const uint32_t block = 128, grid = (count + block - 1) / block;
  if (full)
    cvtFullKernel<F><<<grid, block>>>(req.generator, first, count, req.seed, device);
  else
    cvtHashKernel<F><<<grid, block>>>(req.generator, first, count, req.seed, static_cast<uint32_t *>(device));
  checkCuda(cudaGetLastError(), "kernel launch");
  checkCuda(cudaDeviceSynchronize(), "kernel run");
  const size_t at = out.size();
  out.resize(at + bytes);
  checkCuda(cudaMemcpy(out.data() + at, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  checkCuda(cudaFree(device), "cudaFree");
}
