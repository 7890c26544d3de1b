#!/usr/bin/env bash
# Captures everything the playground compares for one GPU, into OUT_DIR:
#   main/        every form this GPU supports, default sample (64 rows)
#   fma-rn-2p32/ fma.rn.f16 and fma.rn.bf16 on 2^32 sampled triples (65,536 sample rows)
#   fma-rn-x2/   fma.rn.f16x2 and fma.rn.bf16x2 on 4,096 sample rows (2^28 inputs, both lanes)
#   device.txt   nvidia-smi's view of the GPU and driver, and the commands that ran
# Usage: hw/capture-all.sh OUT_DIR   (after hw/build.sh for this GPU's architecture)
set -euo pipefail
out="${1:?usage: hw/capture-all.sh OUT_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
capture="$here/build/capture"
mkdir -p "$out"
{
  echo "# nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv
  echo "# nvidia-smi (header)"
  nvidia-smi >"$out/nvidia-smi.txt" || true
  sed -n 1,4p "$out/nvidia-smi.txt"
} >"$out/device.txt" 2>&1

run() {
  echo "# $*" >>"$out/device.txt"
  "$capture" "$@"
}
run --out "$out/main"
run --only '^fma\.rn\.(f16|bf16)$' --sample-rows 65536 --out "$out/fma-rn-2p32"
run --only '^fma\.rn\.(f16|bf16)x2$' --sample-rows 4096 --out "$out/fma-rn-x2"
echo "capture-all: done -> $out"
