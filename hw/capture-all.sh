#!/usr/bin/env bash
# Captures everything the playground compares for one GPU, into OUT_DIR:
#   main/        every form this GPU supports (the arithmetic's and cvt's), default sample (64 rows)
#   fma-rn-2p32/ fma.rn.f16 and fma.rn.bf16 on 2^32 sampled triples (65,536 sample rows)
#   fma-rn-x2/   fma.rn.f16x2 and fma.rn.bf16x2 on 4,096 sample rows (2^28 inputs, both lanes)
#   device.txt   nvidia-smi's view of the GPU and driver, and the commands that ran
# With --only REGEX, main/ holds the forms that match and the two fma captures are left out:
#   hw/capture-all.sh OUT_DIR --only '^cvt\.'     every cvt form this GPU supports
# Usage: hw/capture-all.sh OUT_DIR [--only REGEX]   (after hw/build.sh for this GPU's architecture)
set -euo pipefail
out="${1:?usage: hw/capture-all.sh OUT_DIR [--only REGEX]}"
only=""
if [ $# -ge 2 ]; then
  [ "$2" = "--only" ] && [ $# -eq 3 ] || { echo "usage: hw/capture-all.sh OUT_DIR [--only REGEX]" >&2; exit 2; }
  only="$3"
fi
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
if [ -n "$only" ]; then
  run --only "$only" --out "$out/main"
else
  run --out "$out/main"
  run --only '^fma\.rn\.(f16|bf16)$' --sample-rows 65536 --out "$out/fma-rn-2p32"
  run --only '^fma\.rn\.(f16|bf16)x2$' --sample-rows 4096 --out "$out/fma-rn-x2"
fi
echo "capture-all: done -> $out"
