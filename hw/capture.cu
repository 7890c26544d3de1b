// GPU capture harness: runs every PTX half / mixed-precision form and every float-to-float cvt
// form (baseline targets) this GPU supports on the inputs of the capture plan (hw/lib/plan.ts,
// hw/lib/cvt-plan.ts) and writes the results in the format that hw/compare.ts reads
// (hw/README.md). Build: hw/build.sh. Needs nvcc only.
//
//   capture [--out DIR] [--only REGEX] [--sample-rows N] [--seed S] [--rows FIRST:COUNT] [--device N]
//   capture --row FORM SECTION ROW [--out DIR] [--seed S] [--device N]
//   capture --list
//   capture --selftest                 host-side inputs and hashes, for tests/hw (no GPU needed)
//   capture --selftest-summary SM [..]  the summary a run on sm_SM would write (no GPU needed)
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "harness.cuh"
#include "cvt-harness.cuh"

void checkCuda(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "capture: %s failed: %s\n", what, cudaGetErrorString(err));
    std::exit(3);
  }
}

__global__ void probeKernel() {}

namespace {

struct Options {
  std::string out;
  std::string only = ".*";
  uint32_t sampleRows = kDefaultSampleRows;
  uint32_t seed = kDefaultSampleSeed;
  uint32_t pairFirstRow = 0;
  uint32_t pairRows = kRowLength;
  int device = 0;
  bool list = false;
  bool selftest = false;
  int selftestSummarySm = 0;
  bool rowMode = false;
  std::string rowForm, rowSection;
  uint32_t row = 0;
};

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr,
               "capture: %s\n"
               "usage: capture [--out DIR] [--only REGEX] [--sample-rows N] [--seed S] [--rows FIRST:COUNT] [--device N]\n"
               "       capture --row FORM SECTION ROW [--out DIR] [--seed S] [--device N]\n"
               "       capture --list\n",
               why);
  std::exit(2);
}

uint32_t parseNumber(const char *text, const char *what) {
  char *end = nullptr;
  unsigned long long v = std::strtoull(text, &end, 0);  // decimal or 0x hex
  if (!*text || *end || v > 0xffffffffull) usage((std::string("bad number for ") + what + ": " + text).c_str());
  return (uint32_t)v;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto next = [&](const char *what) -> const char * {
      if (i + 1 >= argc) usage((std::string("missing value for ") + what).c_str());
      return argv[++i];
    };
    if (a == "--out") o.out = next("--out");
    else if (a == "--only") o.only = next("--only");
    else if (a == "--sample-rows") o.sampleRows = parseNumber(next("--sample-rows"), "--sample-rows");
    else if (a == "--seed") o.seed = parseNumber(next("--seed"), "--seed");
    else if (a == "--device") o.device = (int)parseNumber(next("--device"), "--device");
    else if (a == "--list") o.list = true;
    else if (a == "--selftest") o.selftest = true;
    else if (a == "--selftest-summary") o.selftestSummarySm = (int)parseNumber(next("--selftest-summary"), "--selftest-summary");
    else if (a == "--rows") {
      std::string v = next("--rows");
      size_t colon = v.find(':');
      if (colon == std::string::npos) usage("--rows takes FIRST:COUNT");
      o.pairFirstRow = parseNumber(v.substr(0, colon).c_str(), "--rows FIRST");
      o.pairRows = parseNumber(v.substr(colon + 1).c_str(), "--rows COUNT");
    } else if (a == "--row") {
      o.rowMode = true;
      o.rowForm = next("--row FORM");
      o.rowSection = next("--row SECTION");
      o.row = parseNumber(next("--row ROW"), "--row ROW");
    } else usage(("unknown argument " + a).c_str());
  }
  if (o.sampleRows < 1 || o.sampleRows > kMaxSampleRows) usage("--sample-rows out of range");
  if (o.pairRows < 1 || (uint64_t)o.pairFirstRow + o.pairRows > kRowLength) usage("--rows out of range");
  return o;
}

std::string jsonString(const std::string &s) {
  std::string r = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\';
    if ((unsigned char)ch < 0x20) continue;
    r += ch;
  }
  return r + "\"";
}

std::string slug(const std::string &name) {
  std::string r;
  for (char ch : name) r += std::isalnum((unsigned char)ch) ? (char)std::tolower((unsigned char)ch) : '-';
  return r;
}

std::string versionText(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

void writeFile(const std::filesystem::path &path, const std::vector<uint8_t> &bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()), (std::streamsize)bytes.size());
  if (!f) {
    std::fprintf(stderr, "capture: cannot write %s\n", path.string().c_str());
    std::exit(4);
  }
}

std::string fileName(const FormEntry &form, const SectionSpec &s) {
  return std::string(form.name) + "." + kGeneratorNames[s.generator] + (s.layout == LAYOUT_FULL ? ".bin" : ".hash");
}

const FormEntry *findForm(const std::string &name) {
  for (const FormEntry &f : kForms)
    if (name == f.name) return &f;
  return nullptr;
}

int dumpRow(const Options &o, const std::filesystem::path &out, int compiledFor) {
  const FormEntry *form = findForm(o.rowForm);
  if (!form) usage(("unknown form " + o.rowForm).c_str());
  if (form->minSm > compiledFor) usage((o.rowForm + " needs sm_" + std::to_string(form->minSm)).c_str());
  for (int k = 0; k < form->sectionCount; k++) {
    const SectionSpec &s = form->sections[k];
    if (o.rowSection != kGeneratorNames[s.generator]) continue;
    if (s.layout != LAYOUT_HASHED_ROWS) usage("--row applies to hashed sections (pairs, sample) only");
    uint32_t rows = s.size == kSizeFromSampleRows ? kMaxSampleRows : s.size;
    if (o.row >= rows) usage("--row ROW out of range");
    std::vector<uint8_t> bytes;
    form->run({s.generator, s.layout, o.row, 1, o.seed, true}, bytes);
    std::filesystem::path path = out / "rows" / (o.rowForm + "." + o.rowSection + "." + std::to_string(o.row) + ".bin");
    writeFile(path, bytes);
    std::printf("wrote %s (%zu bytes)\n", path.string().c_str(), bytes.size());
    return 0;
  }
  usage(("form " + o.rowForm + " has no section " + o.rowSection).c_str());
}

struct Device {
  std::string name;
  int sm;
  int compiledFor;
  std::string driverVersion, runtimeVersion;
};

struct RowRange {
  uint32_t first, count;
};

// Rows a hashed section captures: pairs rows from --rows, sample rows 0 .. --sample-rows.
RowRange hashedRows(const SectionSpec &s, const Options &o) {
  return s.size == kSizeFromSampleRows ? RowRange{0, o.sampleRows} : RowRange{o.pairFirstRow, o.pairRows};
}

std::string sectionJson(const FormEntry &form, const SectionSpec &s, const Options &o) {
  std::string json = "{\"name\": " + jsonString(kGeneratorNames[s.generator]) + ", \"file\": " + jsonString(fileName(form, s));
  if (s.layout == LAYOUT_FULL) return json + ", \"layout\": \"full\", \"count\": " + std::to_string(s.size) + "}";
  const RowRange range = hashedRows(s, o);
  return json + ", \"layout\": \"hashed-rows\", \"firstRow\": " + std::to_string(range.first) +
         ", \"rows\": " + std::to_string(range.count) + "}";
}

// The summary entry of a form: skipped when newer than the compiled architecture.
std::string formJson(const FormEntry &form, const Options &o, int compiledFor, double ms) {
  std::string json = "    {\"form\": " + jsonString(form.name) + ", \"minSm\": " + std::to_string(form.minSm) +
                     ", \"resultBits\": " + std::to_string(form.resultBits) + ", \"lanes\": " + std::to_string(form.lanes);
  if (form.minSm > compiledFor)
    return json + ", \"captured\": false, \"skipReason\": " +
           jsonString("needs sm_" + std::to_string(form.minSm) + "; kernels compiled for sm_" + std::to_string(compiledFor)) +
           ", \"sections\": []}";
  std::string sections;
  for (int k = 0; k < form.sectionCount; k++) sections += (k ? ", " : "") + sectionJson(form, form.sections[k], o);
  return json + ", \"captured\": true, \"gpuMs\": " + std::to_string(ms) + ", \"sections\": [" + sections + "]}";
}

std::string summaryJson(const Device &d, const Options &o, const std::vector<std::string> &forms) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string json = "{\n  \"format\": \"ptxf-hw-capture\",\n  \"formatVersion\": 1,\n  \"producer\": \"hw/capture.cu\",\n";
  json += "  \"createdAt\": \"" + std::string(stamp) + "\",\n";
  json += "  \"device\": {\"name\": " + jsonString(d.name) + ", \"sm\": " + std::to_string(d.sm) +
          ", \"compiledFor\": " + std::to_string(d.compiledFor) + ", \"driverVersion\": " + jsonString(d.driverVersion) +
          ", \"runtimeVersion\": " + jsonString(d.runtimeVersion) + "},\n";
  json += "  \"hash\": \"" ROW_HASH_NAME "\",\n  \"sampleSeed\": " + std::to_string(o.seed) + ",\n  \"sampleRows\": " +
          std::to_string(o.sampleRows) + ",\n  \"forms\": [\n";
  for (size_t i = 0; i < forms.size(); i++) json += forms[i] + (i + 1 < forms.size() ? ",\n" : "\n");
  return json + "  ]\n}\n";
}

// Prints the summary a run on an sm_`sm` GPU would write with these options, without running
// anything; tests/hw checks it against the plan that hw/compare.ts enforces.
int selftestSummary(const Options &o, int sm) {
  const Device device{"selftest (no GPU)", sm, sm, "none", "none"};
  std::vector<std::string> forms;
  const std::regex only(o.only);
  for (const FormEntry &form : kForms)
    if (std::regex_search(form.name, only)) forms.push_back(formJson(form, o, sm, 0));
  std::fputs(summaryJson(device, o, forms).c_str(), stdout);
  return 0;
}

// Prints, on the host, the inputs of a few indices of every section and the hash of a few
// word sequences; tests/hw/harness-mirror.test.ts checks them against hw/lib.
int selftest() {
  for (const FormEntry &form : kForms) {
    for (int k = 0; k < form.sectionCount; k++) {
      const SectionSpec &s = form.sections[k];
      const uint64_t size = s.layout == LAYOUT_FULL ? s.size
                            : (uint64_t)(s.size == kSizeFromSampleRows ? kDefaultSampleRows : s.size) * kRowLength;
      std::vector<uint64_t> indices = {0, 1, size - 1};
      for (uint32_t j = 0; j < 5; j++) indices.push_back(mix32(j + 0x1234u) % size);
      for (uint64_t index : indices) {
        uint64_t regs[3];
        form.inputs(s.generator, (uint32_t)index, kDefaultSampleSeed, regs);
        std::printf("inputs %s %s %llu %08llx %08llx %08llx\n", form.name, kGeneratorNames[s.generator],
                    (unsigned long long)index, (unsigned long long)regs[0], (unsigned long long)regs[1],
                    (unsigned long long)regs[2]);
      }
    }
  }
  for (uint32_t n : {0u, 1u, 65536u}) {
    uint32_t lo = kRowHashSeedLo, hi = kRowHashSeedHi;
    for (uint32_t i = 0; i < n; i++) {
      lo = hashStep(lo, mix32(i));
      hi = hashStep(hi, mix32(i));
    }
    std::printf("hash %u %08x %08x\n", n, hashFinish(lo, n), hashFinish(hi, n));
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  const Options o = parseArgs(argc, argv);
  if (o.list) {
    for (const FormEntry &f : kForms) std::printf("%-32s sm_%d\n", f.name, f.minSm);
    return 0;
  }
  if (o.selftest) return selftest();
  if (o.selftestSummarySm) return selftestSummary(o, o.selftestSummarySm);
  checkCuda(cudaSetDevice(o.device), "cudaSetDevice");
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, o.device), "cudaGetDeviceProperties");
  cudaFuncAttributes probe;
  checkCuda(cudaFuncGetAttributes(&probe, probeKernel), "cudaFuncGetAttributes (is the binary built for this GPU?)");
  int driver = 0, runtime = 0;
  checkCuda(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  checkCuda(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  const int deviceSm = prop.major * 10 + prop.minor;
  // Forms newer than the architecture the kernels were compiled for trap; never launch them.
  const int compiledFor = probe.binaryVersion;
  const std::filesystem::path out = o.out.empty() ? std::filesystem::path("hw/results") / (slug(prop.name) + "-sm" + std::to_string(deviceSm)) : std::filesystem::path(o.out);
  std::printf("capture: %s (sm_%d), kernels compiled for sm_%d, driver %s, runtime %s -> %s\n", prop.name, deviceSm,
              compiledFor, versionText(driver).c_str(), versionText(runtime).c_str(), out.string().c_str());
  if (o.rowMode) return dumpRow(o, out, compiledFor);

  const std::regex only(o.only);
  const Device device{prop.name, deviceSm, compiledFor, versionText(driver), versionText(runtime)};
  std::vector<std::string> forms;
  int captured = 0, skipped = 0;
  for (const FormEntry &form : kForms) {
    if (!std::regex_search(form.name, only)) continue;
    if (form.minSm > compiledFor) {
      forms.push_back(formJson(form, o, compiledFor, 0));
      skipped++;
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < form.sectionCount; k++) {
      const SectionSpec &s = form.sections[k];
      std::vector<uint8_t> bytes;
      if (s.layout == LAYOUT_FULL) {
        form.run({s.generator, s.layout, 0, s.size, o.seed, false}, bytes);
      } else {
        const RowRange range = hashedRows(s, o);
        // Launches of at most 4096 rows keep each kernel short (display watchdogs).
        for (uint32_t r = 0; r < range.count; r += 4096)
          form.run({s.generator, s.layout, range.first + r, std::min<uint32_t>(4096, range.count - r), o.seed, false}, bytes);
      }
      writeFile(out / fileName(form, s), bytes);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("  %-32s %9.1f ms\n", form.name, ms);
    forms.push_back(formJson(form, o, compiledFor, ms));
    captured++;
  }
  const std::string summary = summaryJson(device, o, forms);
  writeFile(out / "summary.json", std::vector<uint8_t>(summary.begin(), summary.end()));
  std::printf("capture: %d forms captured, %d skipped; summary in %s\n", captured, skipped, (out / "summary.json").string().c_str());
  return 0;
}
