// Types shared by the generated form table (forms.generated.h) and the harness (harness.cuh).
#pragma once
#include <cstdint>
#include <vector>

enum Format { FMT_NONE = 0, FMT_F16 = 1, FMT_BF16 = 2, FMT_F32 = 3 };
enum Layout { LAYOUT_FULL = 0, LAYOUT_HASHED_ROWS = 1 };

// Section size placeholder for the sample section, whose row count is a run-time option.
constexpr uint32_t kSizeFromSampleRows = 0;

struct SectionSpec {
  int generator;
  int layout;
  uint32_t size;  // full: number of results; hashed: number of rows
};

// What to run: results [first, first + count) of a full section, rows [first, first + count)
// of a hashed one, or (rowDump) the full results of row `first` of a hashed section.
struct RunRequest {
  int generator;
  int layout;
  uint32_t first;
  uint32_t count;
  uint32_t seed;
  bool rowDump;
};

using SectionRunner = void (*)(const RunRequest &, std::vector<uint8_t> &);
// The registers a, b, c of one input (a cvt form's a may be 64 bits wide; it has no c).
using InputGenerator = void (*)(int generator, uint32_t index, uint32_t seed, uint64_t regs[3]);

struct FormEntry {
  const char *name;
  int minSm;
  int lanes;
  int resultBits;
  int sectionCount;
  SectionSpec sections[3];
  SectionRunner run;
  InputGenerator inputs;
};

// Defined in harness.cuh and cvt-harness.cuh; forms.generated.h takes their addresses for each
// form (an arithmetic form's, a cvt form's).
template <class F> void runSection(const RunRequest &req, std::vector<uint8_t> &out);
template <class F> void hostInputs(int generator, uint32_t index, uint32_t seed, uint64_t regs[3]);
template <class F> void runCvtSection(const RunRequest &req, std::vector<uint8_t> &out);
template <class F> void hostCvtInputs(int generator, uint32_t index, uint32_t seed, uint64_t regs[3]);
