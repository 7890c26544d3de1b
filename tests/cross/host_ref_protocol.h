// The batched protocol of the host reference programs (nv_host_ref.cpp, nv_cvt_host_ref.cpp),
// the same as numpy_ref.py's: a request is "<op> <n>", then one line per operand of n values of
// 8 hex digits each; the answer is one line of n results, 8 hex digits each (16-bit results in
// the low half). `--list` prints every op with its arity. Each program builds its table of ops
// and hands it to serve().
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <vector>

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

// An op of up to three operands; those beyond its arity arrive as 0.
using Op = std::function<u32(u32, u32, u32)>;

struct Entry {
  int arity;
  Op fn;
};

using Ops = std::map<std::string, Entry>;

int hexDigit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

bool readValues(std::size_t n, std::vector<u32>& out) {
  std::string line;
  if (!std::getline(std::cin, line) || line.size() < n * 8) return false;
  out.resize(n);
  for (std::size_t i = 0; i < n; i++) {
    u32 v = 0;
    for (std::size_t k = 0; k < 8; k++) {
      const int d = hexDigit(line[i * 8 + k]);
      if (d < 0) return false;
      v = (v << 4) | static_cast<u32>(d);
    }
    out[i] = v;
  }
  return true;
}

// Answers requests on stdin until it ends; 2 on an unknown op or a malformed operand line.
int serve(int argc, char** argv, const Ops& ops) {
  if (argc > 1 && std::string(argv[1]) == "--list") {
    for (const auto& [name, entry] : ops) std::printf("%s %d\n", name.c_str(), entry.arity);
    return 0;
  }
  std::ios::sync_with_stdio(false);
  std::string header;
  std::vector<u32> operand[3];
  std::string out;
  while (std::getline(std::cin, header)) {
    if (header.empty()) continue;
    const auto space = header.find(' ');
    const std::string name = header.substr(0, space);
    const std::size_t n = space == std::string::npos ? 0 : std::stoul(header.substr(space + 1));
    const auto it = ops.find(name);
    if (it == ops.end()) {
      std::fprintf(stderr, "unknown op %s\n", name.c_str());
      return 2;
    }
    for (int k = 0; k < 3; k++) operand[k].assign(n, 0);
    for (int k = 0; k < it->second.arity; k++) {
      if (!readValues(n, operand[k])) {
        std::fprintf(stderr, "bad operand line %d for %s\n", k, name.c_str());
        return 2;
      }
    }
    out.resize(n * 8 + 1);
    for (std::size_t i = 0; i < n; i++) {
      std::snprintf(&out[i * 8], 9, "%08x", it->second.fn(operand[0][i], operand[1][i], operand[2][i]));
    }
    out[n * 8] = '\n';
    std::fwrite(out.data(), 1, n * 8 + 1, stdout);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
