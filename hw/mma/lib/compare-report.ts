/** The text compare.ts prints for one form: its verdict, counts per section, first differences. */
import type { MmaForm } from './forms.ts';
import { slotBits } from './layout.ts';
import type { FormComparison } from './compare-mma.ts';

function hex(x: number, bits: number): string {
  return `0x${x.toString(16).padStart(bits / 4, '0')}`;
}

export function formatComparison(form: MmaForm, c: FormComparison): string {
  const differ = c.sections.exact.differ + c.sections.corner.differ + c.sections.random.differ;
  const counts = (['exact', 'corner', 'random'] as const)
    .map((s) => `${s} ${c.sections[s].agree}/${c.sections[s].agree + c.sections[s].differ}`)
    .join(', ');
  const lines = [`${differ === 0 ? 'AGREE ' : 'DIFFER'} ${c.form}  (${counts} agree)`];
  const [ab, bb, db] = [slotBits(form, 'a'), slotBits(form, 'b'), slotBits(form, 'd')];
  const cb = slotBits(form, 'c');
  for (const d of c.differences) {
    lines.push(
      `  tile ${d.tile} (${d.section}${d.cornerCase ? `: ${d.cornerCase}` : ''}) product ${d.product} d[${d.row}][${d.col}]: ` +
        `model ${hex(d.model, db)}, measured ${hex(d.measured, db)}`,
      `    a = ${d.inputs.a.map((x) => hex(x, ab)).join(',')}`,
      `    b = ${d.inputs.b.map((x) => hex(x, bb)).join(',')}`,
      `    c = ${hex(d.inputs.c, cb)}`,
    );
  }
  return lines.join('\n');
}
