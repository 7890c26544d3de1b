/**
 * The trace checker's comparison: the engine's EvalResult (as JSON, the form scripts read)
 * against the model's expectation (trace-model.ts), every field of every step. A disagreement
 * names the place (element, step, field path), what the model expects and what the trace says.
 */
import type { ExpectedResult, ExpectedStep, FieldCheck, RuleExpectation } from './trace-expect.ts';

export interface Disagreement {
  /** "element 0, step 3 (round).direction". */
  readonly where: string;
  readonly expected: string;
  readonly actual: string;
}

const show = (v: unknown): string =>
  v === undefined ? 'absent' : typeof v === 'string' ? v : JSON.stringify(v);

function isFieldCheck(v: unknown): v is FieldCheck {
  return typeof v === 'object' && v !== null && typeof (v as FieldCheck).check === 'function';
}

function compareValue(
  expected: unknown,
  actual: unknown,
  where: string,
  out: Disagreement[],
): void {
  if (isFieldCheck(expected)) {
    const problem = expected.check(actual);
    if (problem) out.push({ where, expected: problem, actual: show(actual) });
    return;
  }
  if (
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys)
      compareValue(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        `${where}${Array.isArray(expected) ? `[${key}]` : `.${key}`}`,
        out,
      );
    return;
  }
  if (!Object.is(expected, actual))
    out.push({ where, expected: show(expected), actual: show(actual) });
}

function compareRule(
  expected: RuleExpectation,
  actual: unknown,
  where: string,
  out: Disagreement[],
) {
  const rule = (actual ?? {}) as { source?: unknown; section?: unknown; text?: unknown };
  if (rule.source !== expected.source)
    out.push({ where: `${where}.source`, expected: expected.source, actual: show(rule.source) });
  if (rule.section !== expected.section)
    out.push({ where: `${where}.section`, expected: expected.section, actual: show(rule.section) });
  const text = typeof rule.text === 'string' ? rule.text : '';
  for (const pattern of expected.mentions)
    if (!pattern.test(text))
      out.push({ where: `${where}.text`, expected: `mentions ${pattern}`, actual: text });
}

function compareStep(expected: ExpectedStep, actual: unknown, where: string, out: Disagreement[]) {
  const { rule, steps, ...fields } = expected;
  const {
    rule: actualRule,
    steps: actualSteps,
    ...actualFields
  } = (actual ?? {}) as Record<string, unknown>;
  compareValue(fields, actualFields, where, out);
  compareRule(rule, actualRule, `${where}.rule`, out);
  // A step that holds steps (a tensor core's fused step or fma link): each compared as a step.
  if (steps !== undefined || actualSteps !== undefined)
    compareSteps((steps ?? []) as ExpectedStep[], actualSteps, where, out);
}

/**
 * The steps of an element or of a step that holds steps (`where` names it): the same kinds in
 * the same order, then each step field by field.
 */
function compareSteps(
  expected: readonly ExpectedStep[],
  actual: unknown,
  where: string,
  out: Disagreement[],
) {
  const steps = (Array.isArray(actual) ? actual : []) as Record<string, unknown>[];
  const kinds = (s: readonly { kind?: unknown }[]) => s.map((x) => String(x.kind)).join(', ');
  if (kinds(steps) !== kinds(expected)) {
    out.push({ where: `${where}.steps`, expected: kinds(expected), actual: kinds(steps) });
    return;
  }
  expected.forEach((step, j) =>
    compareStep(step, steps[j], `${where}, step ${j + 1} (${step.kind})`, out),
  );
}

/** Every disagreement between the engine's result and the model's (none: the trace is right). */
export function compareTrace(expected: ExpectedResult, actual: unknown): Disagreement[] {
  const out: Disagreement[] = [];
  const got = actual as Record<string, unknown>;
  const known = new Set(['form', 'd', 'dBits', 'dType', 'decisions', 'elements']);
  for (const key of ['form', 'd', 'dBits', 'dType'] as const)
    compareValue(expected[key], got[key], key, out);
  compareValue(expected.decisions, got.decisions, 'decisions', out);
  for (const key of Object.keys(got ?? {}))
    if (!known.has(key)) out.push({ where: key, expected: 'absent', actual: show(got[key]) });
  const elements = (got.elements ?? []) as Record<string, unknown>[];
  if (elements.length !== expected.elements.length)
    out.push({
      where: 'elements',
      expected: `${expected.elements.length}`,
      actual: `${elements.length}`,
    });
  expected.elements.forEach((element, i) => {
    const gotElement = elements[i] ?? {};
    const where = `element ${element.index}`;
    for (const key of Object.keys(gotElement))
      if (!['index', 'result', 'steps'].includes(key))
        out.push({ where: `${where}.${key}`, expected: 'absent', actual: show(gotElement[key]) });
    compareValue(element.index, gotElement.index, `${where}.index`, out);
    compareValue(element.result, gotElement.result, `${where}.result`, out);
    compareSteps(element.steps, gotElement.steps, where, out);
  });
  return out;
}

export function describeDisagreement(d: Disagreement): string {
  return `${d.where}: expected ${d.expected}, trace says ${d.actual}`;
}
