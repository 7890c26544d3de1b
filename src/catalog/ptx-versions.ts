/** PTX ISA versions this playground knows, oldest first (see ../shared/spec/targets-and-nans.md). */
export const PTX_VERSIONS = [
  '4.2',
  '4.3',
  '5.0',
  '6.0',
  '6.1',
  '6.2',
  '6.3',
  '6.4',
  '6.5',
  '7.0',
  '7.1',
  '7.2',
  '7.3',
  '7.4',
  '7.5',
  '7.6',
  '7.7',
  '7.8',
  '8.0',
  '8.1',
  '8.2',
  '8.3',
  '8.4',
  '8.5',
  '8.6',
  '8.7',
  '8.8',
  '9.0',
  '9.1',
] as const;

export type PtxVersion = string;

export const NEWEST_PTX: PtxVersion = PTX_VERSIONS[PTX_VERSIONS.length - 1]!;

/** Parses "8.6" into comparable integers; returns null for anything else. */
export function parsePtxVersion(text: string): { major: number; minor: number } | null {
  const m = /^(\d{1,2})\.(\d)$/.exec(text.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/** Negative when a < b, zero when equal, positive when a > b. Both must be valid versions. */
export function comparePtx(a: PtxVersion, b: PtxVersion): number {
  const pa = parsePtxVersion(a);
  const pb = parsePtxVersion(b);
  if (!pa || !pb) throw new Error(`not a PTX ISA version: ${!pa ? a : b}`);
  return pa.major - pb.major || pa.minor - pb.minor;
}

export function isKnownPtxVersion(text: string): boolean {
  return (PTX_VERSIONS as readonly string[]).includes(text);
}

export function maxPtx(versions: readonly PtxVersion[]): PtxVersion {
  return versions.reduce((best, v) => (comparePtx(v, best) > 0 ? v : best), '4.2');
}
