/**
 * The operands of a whole line (`fma.rn.f16x2 %r1, %r2, %r3, %r4;`), read against the operand
 * list of the form's syntax line: register names separated by commas, cvt's x4 sources in
 * braces (`d, {a, b, e, f}, rbits`), a `;` and an optional `//` comment.
 */
import type { Form } from './instruction.ts';
import { operandText, shown, syntaxError, type SyntaxError } from './parse-parts.ts';

type Operands = { readonly names: string[] | null } | { readonly error: SyntaxError };

const REGISTER = /^[%$A-Za-z_][\w$]*$/;
const TWO_WORDS = /^([%$A-Za-z_][\w$]*)(\s+)(\S[\s\S]*)$/;

/** How many names stand before, inside and after the braces of an operand list. */
function braceShape(operands: string): [number, number, number] | null {
  const m = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(operands);
  if (!m) return null;
  const names = (s: string) => (s.match(/\w+/g) ?? []).length;
  return [names(m[1]!), names(m[2]!), names(m[3]!)];
}

/**
 * The operand names of `rest`, the text after the instruction name (at `offset` in the input):
 * null when there are none, or an error that says where the text departs from `operands`.
 */
export function readOperands(rest: string, offset: number, form: Form, operands: string): Operands {
  const err = (message: string, position: number, length: number, expected: readonly string[]) => ({
    error: syntaxError(message, position, length, expected),
  });
  const text = operandText(rest, offset, operands, ['end of input', "'//' comment"]);
  if ('error' in text) return text;
  let body = text.body;
  if (body === null) return { names: null };
  const shape = braceShape(operands);
  if (shape) {
    // The braces where the line has them (the names are checked below, with the commas).
    const m = /^([^{}]*)\{([^{}]*)\}([^{}]*)$/.exec(body);
    const commas = (s: string) => s.split(',').length - 1;
    const [before, inside, after] = shape;
    if (!m || commas(m[1]!) !== before || commas(m[2]!) !== inside - 1 || commas(m[3]!) !== after) {
      return err(
        `${form.text} takes operands ${operands}; found ${shown(body.trim())}`,
        offset + body.search(/\S/),
        body.trim().length,
        [operands],
      );
    }
    body = body.replace(/[{}]/g, ' ');
  }
  const count = form.registers.length;
  const names: string[] = [];
  let cursor = offset;
  for (const part of body.split(',')) {
    const name = part.trim();
    const start = cursor + part.indexOf(name === '' ? part : name);
    const twoWords = TWO_WORDS.exec(name);
    if (twoWords) {
      const [first, gap, more] = [twoWords[1]!, twoWords[2]!, twoWords[3]!];
      // After the last operand: junk before the ';'. Before it: "d a b", spaces for commas.
      return names.length + 1 >= count
        ? err(
            `unexpected text ${shown(more)} after the operands`,
            start + first.length + gap.length,
            more.length,
            [';'],
          )
        : err(
            `expected ',' between operands (${form.text} takes ${operands})`,
            start + first.length,
            1,
            [','],
          );
    }
    if (!REGISTER.test(name)) {
      return err(
        name === ''
          ? `expected an operand (${form.text} takes ${operands})`
          : `${shown(name)} is not a register name (${form.text} takes ${operands})`,
        Math.max(start, cursor),
        Math.max(name.length, 1),
        ['register name such as %r1'],
      );
    }
    names.push(name);
    cursor += part.length + 1;
  }
  if (names.length !== count) {
    return err(
      `${form.text} takes ${count} operands (${operands}); found ${names.length}`,
      offset + body.search(/\S/),
      body.trim().length,
      [operands],
    );
  }
  return { names };
}

const IMMEDIATE = /^-?(0[xX][0-9a-fA-F]+|\d+)$/;

/**
 * The operands of a matrix instruction's line (`mma… {%f1, %f2, %f3, %f4}, {%r1, %r2}, …;`,
 * wgmma's descriptors and immediates): each a register, a vector of registers in braces, or an
 * integer immediate, as many as one of the line's operand lists names (`lists`: the spec's, and
 * wgmma's A-from-registers one). Each operand as written, a vector with its braces
 * (`{%f1, %f2}`); null for a name alone.
 */
export function readMatrixOperands(
  rest: string,
  offset: number,
  form: Form,
  lists: readonly string[],
): Operands {
  const err = (message: string, position: number, length: number, expected: readonly string[]) => ({
    error: syntaxError(message, position, length, expected),
  });
  const text = operandText(rest, offset, lists[0]!, ['end of input', "'//' comment"]);
  if ('error' in text) return text;
  const body = text.body;
  if (body === null) return { names: null };
  const takes = lists.join(' or ');
  // Split at the commas outside braces.
  const items: { text: string; start: number }[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= body.length; i++) {
    const ch = body[i];
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (depth < 0 || depth > 1)
      return err(`unbalanced braces in the operands of ${form.text}`, offset + i, 1, [takes]);
    if (i === body.length || (ch === ',' && depth === 0)) {
      const part = body.slice(from, i);
      const trimmed = part.trim();
      items.push({ text: trimmed, start: offset + from + Math.max(0, part.indexOf(trimmed)) });
      from = i + 1;
    }
  }
  if (depth !== 0)
    return err(`unbalanced braces in the operands of ${form.text}`, offset + body.length, 1, [
      takes,
    ]);
  const names: string[] = [];
  for (const item of items) {
    const vector = /^\{([^{}]*)\}$/.exec(item.text);
    const ok = vector
      ? vector[1]!.split(',').every((n) => REGISTER.test(n.trim()))
      : REGISTER.test(item.text) || IMMEDIATE.test(item.text);
    if (!ok)
      return err(
        item.text === ''
          ? `expected an operand (${form.text} takes ${takes})`
          : `${shown(item.text)} is not a register, a vector of registers or an immediate (${form.text} takes ${takes})`,
        item.start,
        Math.max(item.text.length, 1),
        ['register name such as %r1', 'vector of registers such as {%r1, %r2}'],
      );
    names.push(
      vector
        ? `{${vector[1]!
            .split(',')
            .map((n) => n.trim())
            .join(', ')}}`
        : item.text,
    );
  }
  // Each list's operands, a `{…}` group one of them (block scaling's `{byte-id-a, thread-id-a}`).
  const counts = lists.map((l) => l.replace(/\{[^{}]*\}/g, '{}').split(',').length);
  if (!counts.includes(names.length))
    return err(
      `${form.text} takes ${[...new Set(counts)].join(' or ')} operands (${takes}); found ${names.length}`,
      offset + body.search(/\S/),
      body.trim().length,
      [...lists],
    );
  return { names };
}
