import { comparePtx, type PtxVersion } from './ptx-versions.ts';

/**
 * GPU targets as the PTX ISA knows them. A target is `sm_<number>` optionally followed by
 * `a` (architecture-specific) or `f` (family-specific). Targets form a partial order by
 * feature set, not a line of integers:
 *  - a baseline feature "sm_N or higher" is available on every target numbered >= N,
 *    whatever its suffix (sm_90a has every sm_90 feature);
 *  - a family feature of sm_Nf is available on `f` and `a` targets of the same family
 *    (same major architecture) numbered >= N (sm_103f ⊇ sm_100f, sm_100a ⊇ sm_100f);
 *  - an architecture-specific feature of sm_Na is available on sm_Na only.
 */
export type TargetVariant = '' | 'a' | 'f';

export interface Target {
  readonly name: string;
  readonly number: number;
  readonly variant: TargetVariant;
  /** First PTX ISA version that accepts this target. */
  readonly minPtx: PtxVersion;
  /**
   * Last PTX ISA version that accepts it, for a target a later version drops. None does today:
   * sm_101* was renamed sm_110* in PTX ISA 9.0, yet ptxas 13.0 still assembles `.target sm_101`
   * at `.version 9.0` (see assembler-notes.ts).
   */
  readonly maxPtx?: PtxVersion;
  readonly note?: string;
  /** The GPUs of this compute capability, as NVIDIA lists them (GPU_NAMES); absent if none. */
  readonly gpus?: string;
}

/**
 * GPUs by target number (compute capability major × 10 + minor), as NVIDIA's list names them:
 * https://developer.nvidia.com/cuda-gpus (12.1 down to 7.5; 8.0 and 7.5 as earlier editions of
 * the same page list them) and https://developer.nvidia.com/cuda-legacy-gpus (7.2 and below).
 * One or two well-known products of each, short enough for a picker option on a phone. sm_88
 * is not on either list, so it names none. sm_101 is the number the Jetson T5000/T4000 had
 * until PTX ISA 9.0 renamed sm_101 to sm_110, the number the list gives them now.
 */
export const GPU_NAMES: Readonly<Record<number, string>> = {
  50: 'GTX 750 Ti',
  52: 'GTX 980, Tesla M40',
  53: 'Jetson Nano',
  60: 'Tesla P100',
  61: 'GTX 1080, Tesla P40',
  62: 'Jetson TX2',
  70: 'V100, TITAN V',
  72: 'Jetson Xavier',
  75: 'T4, RTX 20',
  80: 'A100, A30',
  86: 'RTX 30, A10, A40',
  87: 'Jetson Orin',
  89: 'RTX 40, L4, L40',
  90: 'H100, H200, GH200',
  100: 'B200, GB200',
  101: 'Jetson T5000/T4000',
  103: 'B300, GB300',
  110: 'Jetson T5000/T4000',
  120: 'RTX 50, RTX PRO 6000',
  121: 'GB10 (DGX Spark)',
};

function t(name: string, minPtx: PtxVersion, extra: Partial<Target> = {}): Target {
  const m = /^sm_(\d+)([af]?)$/.exec(name);
  if (!m) throw new Error(`bad target name ${name}`);
  const number = Number(m[1]);
  const gpus = GPU_NAMES[number];
  return {
    name,
    number,
    variant: m[2] as TargetVariant,
    minPtx,
    ...(gpus ? { gpus } : {}),
    ...extra,
  };
}

const renamed = {
  note: 'sm_101 was renamed sm_110 in PTX ISA 9.0; ptxas 13.0 still accepts .target sm_101 at PTX ISA 9.0',
};

/** Every target from sm_50 to sm_121, in a stable display order (by number, then suffix). */
export const TARGETS: readonly Target[] = [
  t('sm_50', '4.0'),
  t('sm_52', '4.1'),
  t('sm_53', '4.2'),
  t('sm_60', '5.0'),
  t('sm_61', '5.0'),
  t('sm_62', '5.0'),
  t('sm_70', '6.0'),
  t('sm_72', '6.1'),
  t('sm_75', '6.3'),
  t('sm_80', '7.0'),
  t('sm_86', '7.1'),
  t('sm_87', '7.4'),
  // The release notes add sm_88 in PTX ISA 9.0, but ptxas 13.0 accepts it from 7.3 (assembler-notes.ts).
  t('sm_88', '7.3', {
    note: 'PTX ISA release notes list sm_88 under 9.0; ptxas 13.0 accepts it from PTX ISA 7.3',
  }),
  t('sm_89', '7.8'),
  t('sm_90', '7.8'),
  t('sm_90a', '8.0'),
  t('sm_100', '8.6'),
  t('sm_100a', '8.6'),
  t('sm_100f', '8.8'),
  t('sm_101', '8.6', renamed),
  t('sm_101a', '8.6', renamed),
  t('sm_101f', '8.8', renamed),
  t('sm_103', '8.8'),
  t('sm_103a', '8.8'),
  t('sm_103f', '8.8'),
  t('sm_110', '9.0'),
  t('sm_110a', '9.0'),
  t('sm_110f', '9.0'),
  t('sm_120', '8.7'),
  t('sm_120a', '8.7'),
  t('sm_120f', '8.8'),
  t('sm_121', '8.8'),
  t('sm_121a', '8.8'),
  t('sm_121f', '8.8'),
];

export const NEWEST_TARGET = 'sm_121a';

/**
 * Where an instruction is evaluated when no target is named, on the page and by `ptxf eval` and
 * `ptxf batch`: sm_90 (H100, H200) with PTX ISA 8.6. On sm_90 tanh.approx and ex2.approx give
 * the results measured on an H100, the answer people compare against; one default keeps the
 * page and the command line giving the same bits. (`ptxf check` and `ptxf forms` ask "where
 * does it exist?" and default to the newest instead.)
 */
export const DEFAULT_EVAL_TARGET = 'sm_90';
export const DEFAULT_EVAL_PTX = '8.6';

const VARIANT_RANK: Record<TargetVariant, number> = { a: 2, '': 1, f: 0 };

/**
 * The target a PTX ISA version means when none is named: the newest it accepts, its `a` variant
 * first (which has every feature of the base and `f` targets). `--ptx 7.0` alone means sm_80.
 */
export function newestTargetFor(ptx: PtxVersion): Target {
  let best: Target | undefined;
  for (const t of TARGETS) {
    if (!ptxAcceptsTarget(t, ptx)) continue;
    const newer =
      !best ||
      t.number > best.number ||
      (t.number === best.number && VARIANT_RANK[t.variant] > VARIANT_RANK[best.variant]);
    if (newer) best = t;
  }
  if (!best) throw new Error(`no target accepts PTX ISA ${ptx}`);
  return best;
}

const byName = new Map(TARGETS.map((x) => [x.name, x]));

export function findTarget(name: string): Target | undefined {
  return byName.get(name.trim());
}

/** Baseline target `sm_N` (no suffix) for a requirement "sm_N or higher". */
export function baselineTarget(number: number): Target {
  const found = TARGETS.find((x) => x.number === number && x.variant === '');
  if (!found) throw new Error(`no baseline target sm_${number}`);
  return found;
}

/** Targets renamed by a later PTX ISA version: sm_101 is sm_110 under its PTX ISA 8.x name. */
const RENAMED_AS: ReadonlyMap<number, number> = new Map([[101, 110]]);

/**
 * Architecture family of a target number: sm_100 and sm_103 are family 10, sm_120 and sm_121
 * family 12. sm_101 belongs to family 11 with sm_110, the name it was given in PTX ISA 9.0:
 * ptxas 13.0 compiles `.target sm_101f` for sm_110f and refuses it for sm_103f.
 */
function family(number: number): number {
  return Math.floor((RENAMED_AS.get(number) ?? number) / 10);
}

/** True when `have` provides every feature of `need` (the partial order `need ⊆ have`). */
export function targetProvides(have: Target, need: Target): boolean {
  switch (need.variant) {
    case '':
      return have.number >= need.number;
    case 'f':
      return (
        have.variant !== '' &&
        family(have.number) === family(need.number) &&
        have.number >= need.number
      );
    case 'a':
      // The renamed GPU runs the old name's arch-specific code (sm_110a ⊇ sm_101a), not the
      // reverse, which keeps the order antisymmetric.
      return (
        have.name === need.name ||
        (have.variant === 'a' && RENAMED_AS.get(need.number) === have.number)
      );
  }
}

/** Does this PTX ISA version accept `.target <target>`? */
export function ptxAcceptsTarget(target: Target, ptx: PtxVersion): boolean {
  if (comparePtx(ptx, target.minPtx) < 0) return false;
  if (target.maxPtx && comparePtx(ptx, target.maxPtx) > 0) return false;
  return true;
}
