#!/usr/bin/env bash
# Builds the wgmma.mma_async capture for sm_90a: hw/mma/wgmma/build.sh -> hw/build/wgmma-capture
# (the program's kernels are written by the Reproduce tab's generator; nvcc takes a few minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
mkdir -p "$root/hw/build"
node "$root/bin/run-ts.mjs" "$root/hw/mma/wgmma/gen-wgmma.ts" "$root/hw/build"
nvcc -std=c++17 -O2 -arch=compute_90a -code=sm_90a -o "$root/hw/build/wgmma-capture" \
  "$root/hw/build/wgmma-capture.cu"
echo "built hw/build/wgmma-capture for sm_90a"
