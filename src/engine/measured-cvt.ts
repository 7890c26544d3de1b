/**
 * The cvt forms a GPU was measured on, as public/measured/cvt.json holds them (written by
 * hw/export-measured-cvt.ts from a committed capture's summary): per target set, the device and
 * per form what its capture holds and how much of it the engine gives bit for bit. Data only:
 * src/present words it, the CLI and the playground read the file.
 */

export const MEASURED_CVT_FORMAT = 'ptxf-measured-cvt';
export const MEASURED_CVT_FORMAT_VERSION = 1;

/** What a form's capture holds (hw/lib/cvt-plan.ts, the sections). */
export type MeasuredCvtInputs =
  /** Every pattern of a 16-bit source, each result in full. */
  | 'every-input'
  /** Every pattern of an .f32 source (and b = a ^ 0x55555555 for the two-source x2 forms), as row hashes. */
  | 'every-input-row-hashes'
  /** A seeded sample of .f64 sources (the edge values first), each result in full. */
  | 'f64-sample';

export interface MeasuredCvtForm {
  readonly inputs: MeasuredCvtInputs;
  /** Inputs measured: 65,536 results, or 2^32 as 65,536 row hashes. */
  readonly count: number;
  /** Full results equal to the engine's when the file was written (null: row hashes). */
  readonly agree: number | null;
}

export interface MeasuredCvtSet {
  readonly targets: readonly string[];
  readonly device: string;
  readonly driver: string;
  readonly cuda: string;
  /** "NVIDIA H200 (driver 580.159.04, CUDA 13.0)". */
  readonly measuredOn: string;
  /** The committed capture, e.g. hw/captures/sm_90/h200. */
  readonly capture: string;
  readonly capturedAt: string;
  readonly forms: Readonly<Record<string, MeasuredCvtForm>>;
}

export interface MeasuredCvtIndex {
  readonly format: typeof MEASURED_CVT_FORMAT;
  readonly formatVersion: typeof MEASURED_CVT_FORMAT_VERSION;
  readonly sets: readonly MeasuredCvtSet[];
}

/** The sets of a parsed cvt.json, or an error naming what is wrong. */
export function measuredCvtSets(json: unknown): readonly MeasuredCvtSet[] {
  const index = json as Partial<MeasuredCvtIndex> | null;
  if (
    !index ||
    index.format !== MEASURED_CVT_FORMAT ||
    index.formatVersion !== MEASURED_CVT_FORMAT_VERSION ||
    !Array.isArray(index.sets)
  )
    throw new Error(`not a ${MEASURED_CVT_FORMAT} version ${MEASURED_CVT_FORMAT_VERSION} file`);
  return index.sets;
}

/** What was measured of a form on a target, with its set, or null. */
export function measuredCvtForm(
  sets: readonly MeasuredCvtSet[],
  target: string,
  form: string,
): { readonly set: MeasuredCvtSet; readonly form: MeasuredCvtForm } | null {
  for (const set of sets) {
    const entry = set.targets.includes(target) ? set.forms[form] : undefined;
    if (entry) return { set, form: entry };
  }
  return null;
}
