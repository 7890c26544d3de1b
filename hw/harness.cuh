// Device side of the capture harness: input generators, the row hash and the kernels.
// Every function here mirrors one in hw/lib (plan.ts, sample.ts, hash.ts, bit-layout.ts); the
// CPU recomputes the same inputs and hashes from those, so the two must change together.
#pragma once
#include <cstdint>
#include <vector>

#include "harness-types.cuh"
#include "forms.generated.h"

struct Tuple {
  uint32_t v[3];
};

// ---- bit layouts (hw/lib/bit-layout.ts) ----
__host__ __device__ __forceinline__ int mantissaBits(int f) { return f == FMT_F16 ? 10 : f == FMT_BF16 ? 7 : 23; }
__host__ __device__ __forceinline__ int exponentBits(int f) { return f == FMT_F16 ? 5 : 8; }
__host__ __device__ __forceinline__ int biasOf(int f) { return f == FMT_F16 ? 15 : 127; }
__host__ __device__ __forceinline__ uint32_t widthMask(int f) { return f == FMT_F32 ? 0xffffffffu : 0xffffu; }
__host__ __device__ __forceinline__ int unbiasedExponent(uint32_t bits, int f) {
  int field = (int)((bits >> mantissaBits(f)) & ((1u << exponentBits(f)) - 1u));
  return (field > 1 ? field : 1) - biasOf(f);
}
__host__ __device__ __forceinline__ uint32_t withExponentField(uint32_t bits, int field, int f) {
  uint32_t expMask = ((1u << exponentBits(f)) - 1u) << mantissaBits(f);
  return (bits & ~expMask) | ((uint32_t)field << mantissaBits(f));
}
__host__ __device__ __forceinline__ uint32_t oneOf(int f) { return f == FMT_F16 ? 0x3c00u : f == FMT_BF16 ? 0x3f80u : 0x3f800000u; }

// ---- sample words (hw/lib/sample.ts) ----
__host__ __device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// ---- row hash (hw/lib/hash.ts) ----
__host__ __device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
__host__ __device__ __forceinline__ uint32_t hashStep(uint32_t h, uint32_t w) {
  uint32_t k = w * 0xcc9e2d51u;
  k = rotl32(k, 15);
  k *= 0x1b873593u;
  h ^= k;
  h = rotl32(h, 13);
  return h * 5u + 0xe6546b64u;
}
__host__ __device__ __forceinline__ uint32_t hashFinish(uint32_t h, uint32_t count) {
  h ^= count;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// ---- input generators (hw/lib/plan.ts) ----
template <class F> __host__ __device__ __forceinline__ int formatOf(int k) {
  return k == 0 ? F::kFormat0 : k == 1 ? F::kFormat1 : F::kFormat2;
}
template <class F> __host__ __device__ __forceinline__ int regOf(int k) {
  return k == 0 ? F::kReg0 : k == 1 ? F::kReg1 : F::kReg2;
}

__host__ __device__ __forceinline__ uint32_t edgeCount(int f) {
  return f == FMT_F16 ? kEdgeCount_f16 : f == FMT_BF16 ? kEdgeCount_bf16 : kEdgeCount_f32;
}
__host__ __device__ __forceinline__ uint32_t edgeValue(int f, uint32_t i) {
#ifdef __CUDA_ARCH__
  return f == FMT_F16 ? kEdges_f16[i] : f == FMT_BF16 ? kEdges_bf16[i] : kEdges_f32[i];
#else
  return f == FMT_F16 ? kHostEdges_f16[i] : f == FMT_BF16 ? kHostEdges_bf16[i] : kHostEdges_f32[i];
#endif
}

template <class F> __host__ __device__ constexpr uint32_t edgeTupleCountOf() {
  uint32_t n = 1;
  const int formats[3] = {F::kFormat0, F::kFormat1, F::kFormat2};
  for (int k = 0; k < F::kSources; k++)
    n *= formats[k] == FMT_F16 ? kEdgeCount_f16 : formats[k] == FMT_BF16 ? kEdgeCount_bf16 : kEdgeCount_f32;
  return n;
}

// Cross product of the edge tables, last source varying fastest.
template <class F> __host__ __device__ Tuple edgeTuple(uint32_t index) {
  Tuple t = {{0, 0, 0}};
  uint32_t rest = index;
  for (int k = F::kSources - 1; k >= 0; k--) {
    int f = formatOf<F>(k);
    uint32_t n = edgeCount(f);
    t.v[k] = edgeValue(f, rest % n);
    rest /= n;
  }
  return t;
}

template <class F> __host__ __device__ Tuple sampleTuple(uint32_t seed, uint32_t index) {
  uint32_t s = mix32(index ^ mix32(seed));
  uint32_t w[4];
  for (int j = 0; j < 4; j++) w[j] = mix32(s + (uint32_t)(j + 1) * 0x9e3779b9u);
  Tuple t = {{0, 0, 0}};
  for (int k = 0; k < F::kSources; k++) t.v[k] = w[k] & widthMask(formatOf<F>(k));
  uint32_t mode = w[3] & 3u;
  if (mode != 0 && F::kCIndex >= 0) {
    int cf = formatOf<F>(F::kCIndex);
    int exponent = 0;
    for (int k = 0; k < F::kSources; k++)
      if (k != F::kCIndex) exponent += unbiasedExponent(t.v[k], formatOf<F>(k));
    int delta = (int)((w[3] >> 2) & 7u) - 4;
    int maxFinite = (1 << exponentBits(cf)) - 2;
    int field = exponent + biasOf(cf) + delta;
    field = field < 0 ? 0 : field > maxFinite ? maxFinite : field;
    t.v[F::kCIndex] = withExponentField(t.v[F::kCIndex], field, cf);
  }
  return t;
}

template <class F> __host__ __device__ Tuple nanProbeTuple(uint32_t index) {
  uint32_t position = index >> 16, v = index & 0xffffu;
  Tuple t = {{0, 0, 0}};
  for (int k = 0; k < F::kSources; k++)
    t.v[k] = (uint32_t)k == position ? v : regOf<F>(k) == 2 ? 0u : oneOf(formatOf<F>(k));
  return t;
}

// Register bits a, b, c for input `index` of a section (absent operands are 0).
template <class F> __host__ __device__ Tuple inputsAt(int generator, uint32_t index, uint32_t seed) {
  Tuple lane0 = {{0, 0, 0}}, lane1 = {{0, 0, 0}};
  switch (generator) {
    case GEN_ALL:
    case GEN_X2_SAME:
      lane0.v[0] = lane1.v[0] = index;
      break;
    case GEN_X2_DISTINCT:
      lane0.v[0] = index;
      lane1.v[0] = index ^ 0xffffu;
      break;
    case GEN_PAIRS:
      lane0.v[0] = lane1.v[1] = index >> 16;
      lane0.v[1] = lane1.v[0] = index & 0xffffu;
      break;
    case GEN_EDGES:
      lane0 = edgeTuple<F>(index);
      lane1 = edgeTuple<F>(edgeTupleCountOf<F>() - 1 - index);
      break;
    case GEN_SAMPLE:
      if (F::kLanes == 1) {
        lane0 = sampleTuple<F>(seed, index);
      } else {
        lane0 = sampleTuple<F>(seed, 2 * index);
        lane1 = sampleTuple<F>(seed, 2 * index + 1);
      }
      break;
    case GEN_NAN_PROBE:
      lane0 = lane1 = nanProbeTuple<F>(index);
      break;
  }
  Tuple regs = {{0, 0, 0}};
  for (int k = 0; k < F::kSources; k++)
    regs.v[regOf<F>(k)] = F::kLanes == 2 ? (lane0.v[k] | (lane1.v[k] << 16)) : lane0.v[k];
  return regs;
}

// ---- kernels ----
template <class F> __global__ void fullKernel(int generator, uint32_t first, uint32_t count, uint32_t seed, void *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  Tuple r = inputsAt<F>(generator, first + i, seed);
  uint32_t d = F::eval(r.v[0], r.v[1], r.v[2]);
  if (F::kResultBits == 16)
    static_cast<uint16_t *>(out)[i] = (uint16_t)d;
  else
    static_cast<uint32_t *>(out)[i] = d;
}

// One thread per row: evaluates the row's 65,536 inputs in column order and hashes the results.
template <class F> __global__ void hashKernel(int generator, uint32_t firstRow, uint32_t rows, uint32_t seed, uint32_t *out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  uint32_t base = (firstRow + i) * kRowLength;
  uint32_t lo = kRowHashSeedLo, hi = kRowHashSeedHi;
  for (uint32_t col = 0; col < kRowLength; col++) {
    Tuple r = inputsAt<F>(generator, base + col, seed);
    uint32_t d = F::eval(r.v[0], r.v[1], r.v[2]);
    if (F::kResultBits == 16) d &= 0xffffu;
    lo = hashStep(lo, d);
    hi = hashStep(hi, d);
  }
  out[2 * i] = hashFinish(lo, kRowLength);
  out[2 * i + 1] = hashFinish(hi, kRowLength);
}

void checkCuda(cudaError_t err, const char *what);

// Host copy of the input generator, for `capture --selftest` (checks the mirror of plan.ts
// without a GPU).
template <class F> void hostInputs(int generator, uint32_t index, uint32_t seed, uint64_t regs[3]) {
  Tuple t = inputsAt<F>(generator, index, seed);
  for (int k = 0; k < 3; k++) regs[k] = t.v[k];
}

// Runs one request of form F on the current device and appends the little-endian bytes to out.
template <class F> void runSection(const RunRequest &req, std::vector<uint8_t> &out) {
  const bool full = req.layout == LAYOUT_FULL || req.rowDump;
  const uint32_t first = req.rowDump ? req.first * kRowLength : req.first;
  const uint32_t count = req.rowDump ? kRowLength : req.count;
  const size_t bytes = full ? (size_t)count * (F::kResultBits / 8) : (size_t)count * 8;
  void *device = nullptr;
  checkCuda(cudaMalloc(&device, bytes), "cudaMalloc");
  const uint32_t block = 128, grid = (count + block - 1) / block;
  if (full)
    fullKernel<F><<<grid, block>>>(req.generator, first, count, req.seed, device);
  else
    hashKernel<F><<<grid, block>>>(req.generator, first, count, req.seed, static_cast<uint32_t *>(device));
  checkCuda(cudaGetLastError(), "kernel launch");
  checkCuda(cudaDeviceSynchronize(), "kernel run");
  const size_t at = out.size();
  out.resize(at + bytes);
  checkCuda(cudaMemcpy(out.data() + at, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  checkCuda(cudaFree(device), "cudaFree");
}
