#!/usr/bin/env bash
# Builds the capture harness: hw/build.sh [ARCH] -> hw/build/capture
#   ARCH: sm_XX of the GPU to capture (default: native, the GPU of this machine).
# The kernels must be compiled for the GPU's own architecture: a form newer than the compiled
# architecture is skipped, and PTX JIT would hide which ptxas assembled the instructions.
set -euo pipefail
cd "$(dirname "$0")"
arch="${1:-native}"
mkdir -p build
nvcc -std=c++17 -O2 -arch="$arch" -o build/capture capture.cu
echo "built hw/build/capture for $arch"
