/**
 * Command-line shape shared by `ptxf check` and `ptxf forms`: `--name value`, `--name=value`
 * and boolean `--name` flags, plus positional words. Only the shape is checked here; each
 * command judges the values (a target name, a PTX ISA version) itself.
 */

export interface FlagSpec {
  /** Flags that take a value, without the leading dashes: `target`, `ptx`. */
  readonly valued: readonly string[];
  /** Flags that take none: `json`. */
  readonly boolean: readonly string[];
}

export interface ParsedFlags {
  readonly positional: string[];
  readonly values: Map<string, string>;
  readonly switches: Set<string>;
}

/** A negative number as an operand value: -1.5, -.5, -0, -1e-3, -0x1.8p1, -inf, -nan. */
const NEGATIVE_VALUE = /^-(?:\.?\d|inf|nan|snan|qnan|∞)/i;

export function parseFlags(
  args: readonly string[],
  spec: FlagSpec,
): ParsedFlags | { usage: string } {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      // A lone '-x' is an option mistake (instructions never start with '-'), but a negative
      // operand value such as -1.5, -0, -inf or -nan is a positional word.
      if (arg.startsWith('-') && arg.length > 1 && !NEGATIVE_VALUE.test(arg))
        return { usage: `unknown option ${arg}` };
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (spec.boolean.includes(name)) {
      if (inline !== undefined) return { usage: `--${name} takes no value` };
      switches.add(name);
    } else if (spec.valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === '') return { usage: `--${name} needs a value` };
      if (values.has(name)) return { usage: `--${name} given twice` };
      values.set(name, value);
    } else {
      return { usage: `unknown option --${name}` };
    }
  }
  return { positional, values, switches };
}
