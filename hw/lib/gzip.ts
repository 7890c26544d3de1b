import { execFileSync } from 'node:child_process';

/**
 * gzip -9 as the system's gzip writes it, without name or time stamp, so the same input gives
 * the same bytes every time. Node's bundled zlib compresses the capture's counter-like files
 * about half as well (measured: 540,169 against 249,720 bytes for
 * fma.rn.oob.f16x2.nan-probe.bin), so the packed files use the gzip tool.
 */
export function gzip(bytes: Uint8Array): Uint8Array {
  return execFileSync('gzip', ['-9', '-n', '-c'], { input: bytes, maxBuffer: 1 << 30 });
}
