/**
 * A described trace (step-words.ts) as plain text lines, what `ptxf eval` prints: per element
 * (headed where there are several) numbered steps, each its title and lines, the rule it applies
 * and a note for the documented decision it relies on; then the decisions the result depends on.
 *
 *    4. Round to f16 with .rn (to nearest, ties to even)
 *       kept bits and G R S at the ulp 2^-10: kept=10000000000 G=1 R=0 S=0
 *       between 1 (f16 0x3c00) and 1.0009765625 (f16 0x3c01)
 *       exactly half an ulp, a tie: to the even neighbour; rounded down (smaller magnitude), inexact → 1 (f16 0x3c00)
 *       §9.7.4.1: .rn: mantissa LSB rounds to nearest even
 */
import type { StepWords, TraceWords } from './step-words.ts';
import type { Line, Part } from './word-parts.ts';

export interface StepTextOptions {
  /** Write an exact value's every decimal digit (else the one number style's first 17). */
  readonly allDigits?: boolean;
}

export function partText(part: Part, options: StepTextOptions = {}): string {
  if (part.kind === 'exact' && options.allDigits && part.value.kind === 'finite')
    return part.binary ? `${part.value.decimal} = ${part.binary}` : part.value.decimal;
  return part.text;
}

export function lineText(line: Line, options: StepTextOptions = {}): string {
  return line.map((p) => partText(p, options)).join('');
}

/** Where a step's own lines start: under its title, past "NN. ". */
const INDENT = '      ';

/**
 * One step, numbered: its title (and its line, where it has one), its rule and decision note;
 * a tensor core's fused step or fma link then its own steps, numbered within it ("3.1") and
 * indented under it.
 */
export function stepText(
  words: StepWords,
  number: number | string,
  options: StepTextOptions = {},
  indent = '',
): string[] {
  const label = `${number}.`;
  const head = `${indent}  ${label.padStart(3)} ${lineText(words.title, options)}`;
  const under = indent + INDENT + ' '.repeat(Math.max(0, label.length - 3));
  const lines =
    words.lines.length === 1
      ? [`${head}: ${lineText(words.lines[0]!, options)}`]
      : [head, ...words.lines.map((l) => `${under}${lineText(l, options)}`)];
  lines.push(`${under}${words.rule.citation}: ${words.rule.text}`);
  if (words.rule.decision)
    lines.push(`${under}note [${words.rule.decision.id}]: ${words.rule.decision.text}`);
  // Inner steps' numbers start where the step's own lines do.
  words.steps?.forEach((inner, i) =>
    lines.push(...stepText(inner, `${number}.${i + 1}`, options, `${indent}    `)),
  );
  return lines;
}

/** Every element's steps; each element headed where there are several. */
export function traceText(trace: TraceWords, options: StepTextOptions = {}): string[] {
  const lines: string[] = [];
  for (const element of trace.elements) {
    if (trace.elements.length > 1) lines.push(`${lineText(element.heading, options)}:`);
    element.steps.forEach((step, i) => lines.push(...stepText(step, i + 1, options)));
  }
  return lines;
}

/** The documented decisions a result depends on, each with what the engine does. */
export function decisionsText(trace: TraceWords): string[] {
  if (trace.decisions.length === 0) return [];
  return [
    'Documented decisions this result depends on:',
    ...trace.decisions.map((d) => `  [${d.id}] ${d.title}: ${d.decision}`),
  ];
}
