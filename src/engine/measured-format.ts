/**
 * The format of the measured tanh.approx / ex2.approx tables (public/measured, written from a
 * GPU capture by hw/export-measured.ts; hw/README.md, "Measured approx tables"), read the same
 * way by the CLI (from files) and the playground (over HTTP):
 *
 *   index.json          { format, formatVersion, sets: [{ targets, dir, measuredOn, …, tables }] }
 *   <dir>/<file>        per table key (`${fn}.${f16|bf16}`): 65,536 result patterns, uint16
 *                       little-endian, indexed by the input pattern (gzip-compressed on disk)
 *
 * Pure: the callers fetch, read and decompress; this checks and decodes.
 */
/** The approximate functions a measured table can stand for. */
export type ApproxFn = 'tanh' | 'ex2';

/** A measured table's key: the function and the 16-bit format (`ex2.bf16`). */
export type ApproxTableKey = `${ApproxFn}.${'f16' | 'bf16'}`;

/** One decoded table, as the engine reads it (EngineOptions.approxTables). */
export interface MeasuredTable {
  /** 65,536 result patterns indexed by the input pattern. */
  readonly results: ArrayLike<number>;
  readonly measuredOn: string;
}

export const MEASURED_FORMAT = 'ptxf-measured-approx';
export const MEASURED_FORMAT_VERSION = 1;
/** One table, uncompressed: 65,536 results of 2 bytes. */
export const MEASURED_TABLE_BYTES = 65536 * 2;

/** A set of tables as the index lists it: the GPU's facts and where each table's file is. */
export interface MeasuredIndexSet {
  /** Targets whose evaluations use these tables. */
  readonly targets: readonly string[];
  /** Directory of the table files, relative to the index. */
  readonly dir: string;
  readonly device: string;
  readonly driver: string;
  readonly cuda: string;
  /** What the playground and the trace say: "measured on …". */
  readonly measuredOn: string;
  /** Where the capture is in the repository, and when the GPU wrote it. */
  readonly capture: string;
  readonly capturedAt: string;
  readonly tables: Readonly<Partial<Record<ApproxTableKey, { readonly file: string }>>>;
}

/** The sets of a parsed index.json; throws with the reason when it is not a v1 index. */
export function measuredIndexSets(index: unknown): readonly MeasuredIndexSet[] {
  const { format, formatVersion, sets } = (index ?? {}) as {
    format?: unknown;
    formatVersion?: unknown;
    sets?: unknown;
  };
  if (
    format !== MEASURED_FORMAT ||
    formatVersion !== MEASURED_FORMAT_VERSION ||
    !Array.isArray(sets)
  )
    throw new Error(`index.json is not a ${MEASURED_FORMAT} v${MEASURED_FORMAT_VERSION} index`);
  return sets as MeasuredIndexSet[];
}

/** A table's uncompressed bytes as its results; throws (naming the file) when the size is wrong. */
export function decodeMeasuredTable(bytes: Uint8Array, name: string): Uint16Array {
  if (bytes.byteLength !== MEASURED_TABLE_BYTES)
    throw new Error(`${name}: ${bytes.byteLength} bytes, a table has ${MEASURED_TABLE_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint16Array.from({ length: 65536 }, (_, i) => view.getUint16(2 * i, true));
}
