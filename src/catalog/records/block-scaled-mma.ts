/**
 * The block-scaled `mma.sync.aligned` forms (9.7.14.3 Block Scaling; the syntax lines of
 * 9.7.14.5.14, "Alternate floating point type with block scaling"): `.kind::mxf8f6f4` (k = 32,
 * the f8f6f4 types, one UE8M0 scale per row of A and column of B), `.kind::mxf4` (k = 64, e2m1,
 * two UE8M0 scales) and `.kind::mxf4nvf4` (k = 64, e2m1, two UE8M0 or four UE4M3 scales). They
 * are lines of the mma record (matrix.ts): one parser, validator and generator read them. Their
 * one output element is d = c + Σ_i (a_i · SF_A(i)) · (b_i · SF_B(i)); its registers are d, A's
 * row, B's column, c, and the scales of the row and of the column (`scale_a`, `scale_b`, one per
 * chunk of `.scale_vec_size`), those that the selectors {byte-id, thread-id} pick.
 *
 * Which combinations exist is Table 36, as ptxas 13.0 answers it
 * (tests/ptxas/mma-agreement.test.ts):
 *  - `.scale_vec_size` may be left out for mxf8f6f4 (1X) and mxf4 (2X), not for mxf4nvf4
 *    (".scale_vec_size modifier required");
 *  - mxf4nvf4 takes `.scale_vec::2X` with `.ue8m0` and `.scale_vec::4X` with `.ue4m3` only
 *    ("Illegal modifier '.scale_vec::2X' for instruction 'mma' with type '.ue4m3'"): the spec's
 *    one line of both, printed here twice, once per `.stype`;
 *  - `.stype` is written last, after `.ctype`.
 * Targets: sm_120a from PTX ISA 8.7, and the sm_120f family (sm_120f, sm_121f, sm_121a) from
 * 8.8 ("Support for .kind, .block_scale, .scale_vec_size qualifier requires sm_120a and are
 * supported on sm_120f or higher in the same family from PTX ISA version 8.8").
 */
import type { FormatName } from '../formats.ts';
import type { RecordRequirement, Slot, SyntaxLine } from '../record.ts';
import { opt, req, syntaxLine } from './syntax.ts';

const F8F6F4: readonly FormatName[] = ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'];

/** `.row.col` after the shape, the types after `.kind.block_scale{.scale_vec_size}`. */
const AFTER_SCALE_VEC = { layouts: { a: ['row'], b: ['col'] }, layoutsAt: 3, typesAt: 6 } as const;

const OPERANDS =
  'd, a, b, c, scale-a-data, {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b};';

function line(
  head: string,
  types: readonly string[],
  kind: 'kind::mxf8f6f4' | 'kind::mxf4' | 'kind::mxf4nvf4',
  shape: 'm16n8k32' | 'm16n8k64',
  scaleVec: Slot,
  unpadded: boolean,
): SyntaxLine {
  return {
    ...syntaxLine(`${head} ${OPERANDS}`, types, [
      req('sync', 'sync'),
      req('aligned', 'aligned'),
      req('shape', shape),
      req('kind', kind),
      req('block_scale', 'block_scale'),
      scaleVec,
    ]),
    matrix: { ...AFTER_SCALE_VEC, ...(unpadded ? { unpadded: true } : {}) },
  };
}

const MXF4_HEAD =
  'mma.sync.aligned.m16n8k64.row.col.kind.block_scale{.scale_vec_size}.f32.e2m1.e2m1.f32.stype';
const MXF4NVF4_HEAD =
  'mma.sync.aligned.m16n8k64.row.col.kind.block_scale.scale_vec_size.f32.e2m1.e2m1.f32.stype';
const MXF8F6F4_HEAD =
  'mma.sync.aligned.m16n8k32.row.col.kind.block_scale{.scale_vec_size}.f32.f8f6f4type.f8f6f4type.f32.stype';

export const BLOCK_SCALED_MMA_LINES: readonly SyntaxLine[] = [
  line(
    MXF4_HEAD,
    ['f32.e2m1.e2m1.f32.ue8m0'],
    'kind::mxf4',
    'm16n8k64',
    opt('scale_vec_size', 'scale_vec::2X'),
    true,
  ),
  line(
    MXF4NVF4_HEAD,
    ['f32.e2m1.e2m1.f32.ue8m0'],
    'kind::mxf4nvf4',
    'm16n8k64',
    req('scale_vec_size', 'scale_vec::2X'),
    true,
  ),
  line(
    MXF4NVF4_HEAD,
    ['f32.e2m1.e2m1.f32.ue4m3'],
    'kind::mxf4nvf4',
    'm16n8k64',
    req('scale_vec_size', 'scale_vec::4X'),
    true,
  ),
  line(
    MXF8F6F4_HEAD,
    F8F6F4.flatMap((a) => F8F6F4.map((b) => `f32.${a}.${b}.f32.ue8m0`)),
    'kind::mxf8f6f4',
    'm16n8k32',
    opt('scale_vec_size', 'scale_vec::1X'),
    false,
  ),
];

export const BLOCK_SCALED_MMA_REQUIREMENTS: readonly RecordRequirement[] = [
  {
    feature: '.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 with .block_scale and .scale_vec_size',
    subject: 'feature',
    ptx: '8.7',
    target: { kind: 'only', targets: ['sm_120a', 'sm_120f'] },
    when: [{ withAll: ['block_scale'] }],
  },
];
