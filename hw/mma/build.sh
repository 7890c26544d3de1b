#!/usr/bin/env bash
# Builds the mma capture harness for sm_90: hw/mma/build.sh -> hw/build/mma-capture
# (the kernels are sm_90 machine code: the binary refuses any other GPU rather than JIT them).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p ../build
nvcc -std=c++17 -O2 -arch=sm_90 -o ../build/mma-capture mma-capture.cu
echo "built hw/build/mma-capture for sm_90"
