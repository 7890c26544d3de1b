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
