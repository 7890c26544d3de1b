// Captures what tensor-core mma.sync computes on this GPU, element by element.
//
//   mma-capture --out DIR [--seed S] [--random-tiles N]   run every form on the GPU
//   mma-capture --selftest DIR [--seed S] [--random-tiles N]
//       no GPU: write the inputs the kernels would read (the same files, D left zero), the
//       registers each lane would hand to mma (mma-registers.bin) and each register slot's
//       (product, row, col) (mma-layout.bin), for tests/hw/mma-harness.test.ts to check
//   mma-capture --list                                       the forms, in capture order
//
// One tile = one warp's instruction. The inputs of every tile (exact, corner and random tiles)
// mirror hw/mma/lib/tiles.ts; the fragment layouts mirror hw/mma/lib/layout.ts; the forms, their
// inline PTX and the corner cases come from mma-forms.generated.h (hw/mma/gen-header.ts).
// Files (little-endian), one per input group: mma-<group>.bin holds per form, in summary order,
// A (tiles × products × m × k slots), B (tiles × products × n × k, column by column), C and D
// (tiles × products × m × n), each element in its slot width (1, 2 or 4 bytes).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

struct PatternFormat {
  const char* name;
  int width;
  int fraction_bits;
  int bias;
  int max_field;
  uint32_t max_fraction;
};

struct FormInfo {
  int products, m, n, k;
  int a_row, b_row;  // m8n8k4 only: .row (1) or .col (0) layout of A and B
  int afmt, bfmt, cfmt, dfmt;
  int a_bits, b_bits, c_bits, d_bits;  // slot width of one element in a register
  int a_regs, b_regs, c_regs, d_regs;
  int a_elems, b_elems, c_elems, d_elems;  // elements per lane
};

struct CaseTable {
  int count;
  const uint32_t* words;  // per case: k of A, k of B, C
  const char* const* names;
};

#include "mma-forms.generated.h"

// --- Fragment layouts (hw/mma/lib/layout.ts) ----------------------------------------------

enum Operand { OP_A = 0, OP_B = 1, OP_C = 2, OP_D = 3 };

struct Coord {
  int product, row, col;
};

__host__ __device__ inline Coord fragment_coordinate(const FormInfo& f, int op, int lane, int i) {
  if (f.m == 8) {  // m8n8k4 .f16: four products per warp (9.7.14.5.1)
    int product = (lane >> 2) & 3, high = lane >= 16 ? 1 : 0, q = lane % 4;
    if (op == OP_A)
      return f.a_row ? Coord{product, q + 4 * high, i} : Coord{product, (i % 4) + 4 * high, q};
    if (op == OP_B)
      return f.b_row ? Coord{product, q, i + 4 * high} : Coord{product, i, q + 4 * high};
    int bits = op == OP_C ? f.c_bits : f.d_bits;
    if (bits == 16) return Coord{product, q + 4 * high, i};
    int x = (lane & 1) + (i & 2);
    return Coord{product, x + 4 * high, (i & 4) + (lane & 2) + (i & 1)};
  }
  int g = lane >> 2, t = lane % 4;
  if (op == OP_C || op == OP_D) return Coord{0, g + 8 * (i >> 1), 2 * t + (i & 1)};
  if (op == OP_A) {
    if (f.a_bits == 32) return Coord{0, g + 8 * (i & 1), t + 4 * (i >> 1)};
    if (f.a_bits == 16) return Coord{0, g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)};
    return f.k == 16 ? Coord{0, g + 8 * (i >> 2), 4 * t + (i & 3)}
                     : Coord{0, g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3)};
  }
  if (f.b_bits == 32) return Coord{0, t + 4 * i, g};
  if (f.b_bits == 16) return Coord{0, 2 * t + (i & 1) + 8 * (i >> 1), g};
  return f.k == 16 ? Coord{0, 4 * t + i, g} : Coord{0, 4 * t + (i & 3) + 16 * (i >> 2), g};
}

// Storage index of an element of a tile (hw/mma/lib/tiles.ts aIndex, bIndex, cIndex).
__host__ __device__ inline int a_index(const FormInfo& f, int p, int row, int kk) { return (p * f.m + row) * f.k + kk; }
__host__ __device__ inline int b_index(const FormInfo& f, int p, int kk, int col) { return (p * f.n + col) * f.k + kk; }
__host__ __device__ inline int c_index(const FormInfo& f, int p, int row, int col) { return (p * f.m + row) * f.n + col; }

__host__ __device__ inline int operand_index(const FormInfo& f, int op, Coord c) {
  return op == OP_A ? a_index(f, c.product, c.row, c.col)
         : op == OP_B ? b_index(f, c.product, c.row, c.col)
                      : c_index(f, c.product, c.row, c.col);
}

// The registers lane `lane` hands to mma for operand `op`: element i in slot i, low to high.
__host__ __device__ inline void load_fragment(const FormInfo& f, int op, int lane, const uint32_t* matrix, uint32_t* regs) {
  int bits = op == OP_A ? f.a_bits : op == OP_B ? f.b_bits : f.c_bits;
  int elems = op == OP_A ? f.a_elems : op == OP_B ? f.b_elems : f.c_elems;
  int nregs = op == OP_A ? f.a_regs : op == OP_B ? f.b_regs : f.c_regs;
  int per_reg = 32 / bits;
  for (int r = 0; r < nregs; r++) regs[r] = 0;
  for (int i = 0; i < elems; i++) {
    uint32_t v = matrix[operand_index(f, op, fragment_coordinate(f, op, lane, i))];
    regs[i / per_reg] |= v << ((i % per_reg) * bits);
  }
}

// --- Tile inputs (hw/mma/lib/tiles.ts, element-patterns.ts) --------------------------------

static uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

static uint32_t tile_key(uint32_t seed, int form, int tile) {
  uint32_t k1 = mix32(mix32(seed) ^ (uint32_t)form);
  return mix32(k1 + (uint32_t)tile * 0x9e3779b9u);
}

static uint32_t tile_word(uint32_t key, int stream, int index) {
  return mix32(key ^ mix32(((uint32_t)stream << 20) | (uint32_t)index));
}

static uint32_t compose(const PatternFormat& f, uint32_t sign, int field, uint32_t fraction) {
  return (sign << (f.width - 1)) | ((uint32_t)field << f.fraction_bits) | fraction;
}

static uint32_t random_element(const PatternFormat& f, uint32_t w1, uint32_t w2, int lo, int hi) {
  uint32_t sign = w1 >> 31;
  int e = lo + (int)(((w1 >> 8) & 0xffffu) % (uint32_t)(hi - lo + 1));
  int field = f.bias + e;
  if (field < 0) field = 0;
  if (field > f.max_field) field = f.max_field;
  uint32_t fraction = f.fraction_bits == 32 ? w2 : (w2 & ((1u << f.fraction_bits) - 1u));
  if (field == f.max_field && fraction > f.max_fraction) fraction = f.max_fraction;
  return compose(f, sign, field, fraction);
}

// Small integers |v| <= 3 (element-patterns.ts smallInteger): always normal in these formats.
static uint32_t small_integer(const PatternFormat& f, int v) {
  if (v == 0) return 0;
  int m = v < 0 ? -v : v;
  int e = m >= 2 ? 1 : 0;
  uint32_t half = m == 3 ? (1u << (f.fraction_bits - 1)) : 0u;
  return compose(f, v < 0 ? 1u : 0u, f.bias + e, half);
}

struct TilePlan {
  int exact, corner, random, total;
};

static TilePlan tile_plan(int form, int random_tiles) {
  FormInfo f = form_info(form);
  int per_tile = MMA_CASES_PER_PRODUCT * f.products;
  int corner = (kCaseTables[form].count + per_tile - 1) / per_tile;
  return TilePlan{1, corner, random_tiles, 1 + corner + random_tiles};
}

__host__ __device__ inline int sizes(const FormInfo& f, int op) {
  return op == OP_A ? f.products * f.m * f.k : op == OP_B ? f.products * f.n * f.k : f.products * f.m * f.n;
}

static void fill_exact(const FormInfo& f, uint32_t* a, uint32_t* b, uint32_t* c) {
  const PatternFormat &fa = kPatternFormats[f.afmt], &fb = kPatternFormats[f.bfmt], &fc = kPatternFormats[f.cfmt];
  for (int p = 0; p < f.products; p++) {
    for (int row = 0; row < f.m; row++)
      for (int kk = 0; kk < f.k; kk++) a[a_index(f, p, row, kk)] = small_integer(fa, ((row * 7 + kk * 3 + p) % 5) - 2);
    for (int col = 0; col < f.n; col++)
      for (int kk = 0; kk < f.k; kk++) b[b_index(f, p, kk, col)] = small_integer(fb, ((kk * 5 + col * 3 + 2 * p + 1) % 5) - 2);
    for (int row = 0; row < f.m; row++)
      for (int col = 0; col < f.n; col++) c[c_index(f, p, row, col)] = small_integer(fc, ((row * 3 + col * 5 + p) % 7) - 3);
  }
}

static void place_cases(int form, const FormInfo& f, int tile, uint32_t* a, uint32_t* b, uint32_t* c) {
  const CaseTable& table = kCaseTables[form];
  int per_tile = MMA_CASES_PER_PRODUCT * f.products;
  for (int slot = 0; slot < per_tile; slot++) {
    int s = tile * per_tile + slot;
    if (s >= table.count) break;
    int p = slot / MMA_CASES_PER_PRODUCT, j = slot % MMA_CASES_PER_PRODUCT;
    const uint32_t* w = table.words + (size_t)s * (2 * f.k + 1);
    for (int kk = 0; kk < f.k; kk++) {
      a[a_index(f, p, j, kk)] = w[kk];
      b[b_index(f, p, kk, j)] = w[f.k + kk];
    }
    c[c_index(f, p, j, j)] = w[2 * f.k];
  }
}

static void fill_random(const FormInfo& f, uint32_t key, int mode, uint32_t* a, uint32_t* b, uint32_t* c) {
  const PatternFormat &fa = kPatternFormats[f.afmt], &fb = kPatternFormats[f.bfmt], &fc = kPatternFormats[f.cfmt];
  auto lo = [&](const PatternFormat& x, int narrow) { return mode == 2 ? -x.bias : -narrow; };
  auto hi = [&](const PatternFormat& x, int narrow) { return mode == 2 ? x.max_field - x.bias : narrow; };
  int nab = mode == 1 ? 8 : 2, nc = mode == 1 ? 16 : 4;
  for (int i = 0; i < sizes(f, OP_A); i++) a[i] = random_element(fa, tile_word(key, 0, i), tile_word(key, 1, i), lo(fa, nab), hi(fa, nab));
  for (int i = 0; i < sizes(f, OP_B); i++) b[i] = random_element(fb, tile_word(key, 2, i), tile_word(key, 3, i), lo(fb, nab), hi(fb, nab));
  for (int i = 0; i < sizes(f, OP_C); i++) c[i] = random_element(fc, tile_word(key, 4, i), tile_word(key, 5, i), lo(fc, nc), hi(fc, nc));
  if (mode != 3) return;
  uint32_t sign = 1u << (fb.width - 1);
  for (int p = 0; p < f.products; p++)
    for (int kk = 1; kk < f.k / 2; kk += 2) {
      for (int row = 0; row < f.m; row++) a[a_index(f, p, row, kk)] = a[a_index(f, p, row, kk - 1)];
      for (int col = 0; col < f.n; col++) b[b_index(f, p, kk, col)] = b[b_index(f, p, kk - 1, col)] ^ sign;
    }
}

static void tile_inputs(int form, int tile, uint32_t seed, const TilePlan& plan, uint32_t* a, uint32_t* b, uint32_t* c) {
  FormInfo f = form_info(form);
  if (tile >= plan.exact + plan.corner) {
    int r = tile - plan.exact - plan.corner;
    fill_random(f, tile_key(seed, form, tile), r % 4, a, b, c);
    return;
  }
  fill_exact(f, a, b, c);
  if (tile >= plan.exact) place_cases(form, f, tile - plan.exact, a, b, c);
}

// --- The kernel: one warp per tile ---------------------------------------------------------

template <int F>
__global__ void mma_tiles(const uint32_t* A, const uint32_t* B, const uint32_t* C, uint32_t* D) {
  const FormInfo f = form_info(F);
  int tile = blockIdx.x, lane = threadIdx.x;
  const uint32_t* a = A + (size_t)tile * sizes(f, OP_A);
  const uint32_t* b = B + (size_t)tile * sizes(f, OP_B);
  const uint32_t* c = C + (size_t)tile * sizes(f, OP_C);
  uint32_t* d = D + (size_t)tile * sizes(f, OP_D);
  uint32_t ra[8], rb[8], rc[8], rd[8];
  load_fragment(f, OP_A, lane, a, ra);
  load_fragment(f, OP_B, lane, b, rb);
  load_fragment(f, OP_C, lane, c, rc);
  __syncwarp();
  run_mma<F>(ra, rb, rc, rd);
  int per_reg = 32 / f.d_bits;
  uint32_t mask = f.d_bits == 32 ? 0xffffffffu : ((1u << f.d_bits) - 1u);
  for (int i = 0; i < f.d_elems; i++)
    d[operand_index(f, OP_D, fragment_coordinate(f, OP_D, lane, i))] = (rd[i / per_reg] >> ((i % per_reg) * f.d_bits)) & mask;
}

// __host__ __device__ functions above are shared; the host-only helpers below are not.
#define CHECK(call)                                                                           \
  do {                                                                                        \
    cudaError_t err_ = (call);                                                                \
    if (err_ != cudaSuccess) {                                                                \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

static void launch(int form, int tiles, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {
  switch (form) {
#define LAUNCH_CASE(F) \
  case F:              \
    mma_tiles<F><<<tiles, 32>>>(a, b, c, d); \
    break;
    MMA_FOR_EACH_FORM(LAUNCH_CASE)
#undef LAUNCH_CASE
  }
}

// --- Host: files ---------------------------------------------------------------------------

static void append_slots(std::vector<uint8_t>& out, const std::vector<uint32_t>& words, int bits) {
  for (uint32_t w : words)
    for (int byte = 0; byte < bits / 8; byte++) out.push_back((uint8_t)(w >> (8 * byte)));
}

static void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path.c_str());
    exit(1);
  }
}

static void usage() {
  fprintf(stderr,
          "usage: mma-capture --out DIR [--seed S] [--random-tiles N]\n"
          "       mma-capture --selftest DIR [--seed S] [--random-tiles N]\n"
          "       mma-capture --list\n");
  exit(2);
}

int main(int argc, char** argv) {
  std::string out;
  bool selftest = false, list = false;
  uint32_t seed = MMA_DEFAULT_SEED;
  int random_tiles = MMA_DEFAULT_RANDOM_TILES;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if ((arg == "--out" || arg == "--selftest") && i + 1 < argc) {
      out = argv[++i];
      selftest = arg == "--selftest";
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = (uint32_t)strtoul(argv[++i], nullptr, 0);
    } else if (arg == "--random-tiles" && i + 1 < argc) {
      random_tiles = atoi(argv[++i]);
      if (random_tiles < 0 || random_tiles > 4096) usage();
    } else if (arg == "--list") {
      list = true;
    } else {
      usage();
    }
  }
  if (list) {
    for (int f = 0; f < MMA_FORM_COUNT; f++) printf("%s\n", kFormText[f]);
    return 0;
  }
  if (out.empty()) usage();

  char device_json[1024] = "null";
  if (!selftest) {
    int dev = 0, driver = 0, runtime = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    if (prop.major != 9 || prop.minor != 0) {
      fprintf(stderr, "mma-capture is built for sm_90; this GPU (%s) is sm_%d%d\n", prop.name, prop.major, prop.minor);
      return 1;
    }
    snprintf(device_json, sizeof device_json,
             "{\"name\": \"%s\", \"sm\": %d, \"compiledFor\": 90, \"driverVersion\": %d, \"runtimeVersion\": %d}",
             prop.name, prop.major * 10 + prop.minor, driver, runtime);
  }

  const int groups = (int)(sizeof kGroupNames / sizeof kGroupNames[0]);
  std::vector<std::vector<uint8_t>> files(groups);
  std::vector<uint8_t> registers_file, layout_file;
  std::string forms_json;
  for (int form = 0; form < MMA_FORM_COUNT; form++) {
    FormInfo f = form_info(form);
    TilePlan plan = tile_plan(form, random_tiles);
    int na = sizes(f, OP_A), nb = sizes(f, OP_B), nc = sizes(f, OP_C);
    std::vector<uint32_t> a((size_t)plan.total * na), b((size_t)plan.total * nb), c((size_t)plan.total * nc),
        d((size_t)plan.total * nc, 0);
    for (int t = 0; t < plan.total; t++)
      tile_inputs(form, t, seed, plan, &a[(size_t)t * na], &b[(size_t)t * nb], &c[(size_t)t * nc]);

    float gpu_ms = -1;
    if (!selftest) {
      uint32_t *da, *db, *dc, *dd;
      CHECK(cudaMalloc(&da, a.size() * 4));
      CHECK(cudaMalloc(&db, b.size() * 4));
      CHECK(cudaMalloc(&dc, c.size() * 4));
      CHECK(cudaMalloc(&dd, d.size() * 4));
      CHECK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(dd, 0xff, d.size() * 4));
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      CHECK(cudaEventRecord(start));
      launch(form, plan.total, da, db, dc, dd);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaEventElapsedTime(&gpu_ms, start, stop));
      CHECK(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
      CHECK(cudaFree(da));
      CHECK(cudaFree(db));
      CHECK(cudaFree(dc));
      CHECK(cudaFree(dd));
    } else {
      // What each lane would hand to mma, tile by tile, and each slot's coordinate.
      for (int t = 0; t < plan.total; t++)
        for (int lane = 0; lane < 32; lane++) {
          uint32_t ra[8], rb[8], rc[8];
          load_fragment(f, OP_A, lane, &a[(size_t)t * na], ra);
          load_fragment(f, OP_B, lane, &b[(size_t)t * nb], rb);
          load_fragment(f, OP_C, lane, &c[(size_t)t * nc], rc);
          append_slots(registers_file, std::vector<uint32_t>(ra, ra + f.a_regs), 32);
          append_slots(registers_file, std::vector<uint32_t>(rb, rb + f.b_regs), 32);
          append_slots(registers_file, std::vector<uint32_t>(rc, rc + f.c_regs), 32);
        }
      for (int op = OP_A; op <= OP_D; op++) {
        int elems = op == OP_A ? f.a_elems : op == OP_B ? f.b_elems : op == OP_C ? f.c_elems : f.d_elems;
        for (int lane = 0; lane < 32; lane++)
          for (int i = 0; i < elems; i++) {
            Coord co = fragment_coordinate(f, op, lane, i);
            layout_file.push_back((uint8_t)co.product);
            layout_file.push_back((uint8_t)co.row);
            layout_file.push_back((uint8_t)co.col);
          }
      }
    }

    int g = kFormGroup[form];
    std::vector<uint8_t>& file = files[g];
    size_t off_a = file.size();
    append_slots(file, a, f.a_bits);
    size_t off_b = file.size();
    append_slots(file, b, f.b_bits);
    size_t off_c = file.size();
    append_slots(file, c, f.c_bits);
    size_t off_d = file.size();
    append_slots(file, d, f.d_bits);

    std::string names;
    for (int s = 0; s < kCaseTables[form].count; s++)
      names += std::string(s ? ", " : "") + "\"" + kCaseTables[form].names[s] + "\"";
    char buf[1024];
    snprintf(buf, sizeof buf,
             "    {\"form\": \"%s\", \"group\": \"%s\", \"file\": \"mma-%s.bin\", \"tiles\": %d, "
             "\"sections\": {\"exact\": %d, \"corner\": %d, \"random\": %d}, "
             "\"offsets\": {\"a\": %zu, \"b\": %zu, \"c\": %zu, \"d\": %zu}, \"gpuMs\": %.4f,\n"
             "     \"cornerCases\": [",
             kFormText[form], kGroupNames[g], kGroupNames[g], plan.total, plan.exact, plan.corner, plan.random, off_a,
             off_b, off_c, off_d, gpu_ms);
    forms_json += std::string(form ? ",\n" : "") + buf + names + "]}";
  }

  std::string files_json;
  for (int g = 0; g < groups; g++) {
    std::string name = std::string("mma-") + kGroupNames[g] + ".bin";
    write_file(out + "/" + name, files[g]);
    char buf[256];
    snprintf(buf, sizeof buf, "%s\"%s\": {\"file\": \"%s\", \"bytes\": %zu}", g ? ", " : "", kGroupNames[g],
             name.c_str(), files[g].size());
    files_json += buf;
  }
  if (selftest) {
    write_file(out + "/mma-registers.bin", registers_file);
    write_file(out + "/mma-layout.bin", layout_file);
  }
  char created[64];
  time_t now = time(nullptr);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  std::string summary = std::string("{\n  \"format\": \"ptxf-mma-capture\",\n  \"formatVersion\": 1,\n") +
                        "  \"producer\": \"hw/mma/mma-capture.cu\",\n  \"mode\": \"" + (selftest ? "selftest" : "gpu") +
                        "\",\n  \"createdAt\": \"" + created + "\",\n  \"device\": " + device_json + ",\n";
  char buf[128];
  snprintf(buf, sizeof buf, "  \"seed\": %u,\n  \"randomTiles\": %d,\n", seed, random_tiles);
  summary += std::string(buf) + "  \"files\": {" + files_json + "},\n  \"forms\": [\n" + forms_json + "\n  ]\n}\n";
  write_file(out + "/summary.json", std::vector<uint8_t>(summary.begin(), summary.end()));
  printf("mma-capture: %d forms -> %s (%s)\n", MMA_FORM_COUNT, out.c_str(), selftest ? "self-test, no GPU" : "GPU");
  return 0;
}
