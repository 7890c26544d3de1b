#!/usr/bin/env bash
# Runs the mma capture on this machine's GPU (sm_90: H100 / H200) into OUT_DIR:
#   summary.json, mma-f16.bin, mma-bf16.bin, mma-tf32.bin, mma-fp8.bin  (mma-capture --out)
#   device.txt   nvidia-smi's view of the GPU and driver, and the command that ran
# Usage: hw/mma/capture.sh OUT_DIR   (after hw/mma/build.sh; the binary is hw/build/mma-capture)
set -euo pipefail
out="${1:?usage: hw/mma/capture.sh OUT_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
capture="$here/../build/mma-capture"
mkdir -p "$out"
{
  echo "# nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv || echo "(nvidia-smi failed)"
  echo "# nvidia-smi (header)"
  { nvidia-smi || true; } | sed -n 1,4p
  echo "# $capture --out $out"
} >"$out/device.txt" 2>&1
"$capture" --out "$out"
(cd "$out" && sha256sum summary.json mma-*.bin >>device.txt)
echo "mma capture: done -> $out ($(du -sh "$out" | cut -f1))"
