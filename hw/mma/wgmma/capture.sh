#!/usr/bin/env bash
# Runs the wgmma capture on this machine's GPU (sm_90: H100 / H200) into OUT_DIR:
#   wgmma-d.txt       the GPU's d per case (`index d`), after a `# GPU:` line
#   wgmma-cases.json  the cases, as the program was written with them
#   device.txt        nvidia-smi's view of the GPU and driver, and the SHA-256 of the two
# Usage: hw/mma/wgmma/capture.sh OUT_DIR   (after hw/mma/wgmma/build.sh; carry hw/build)
set -euo pipefail
out="${1:?usage: hw/mma/wgmma/capture.sh OUT_DIR}"
build="$(cd "$(dirname "$0")/../../build" && pwd)"
mkdir -p "$out"
{
  echo "# nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,uuid --format=csv || echo "(nvidia-smi failed)"
  echo "# $build/wgmma-capture"
} >"$out/device.txt" 2>&1
cp "$build/wgmma-cases.json" "$out/"
"$build/wgmma-capture" >"$out/wgmma-d.txt"
(cd "$out" && sha256sum wgmma-d.txt wgmma-cases.json >>device.txt)
echo "wgmma capture: done -> $out"
