/**
 * The semantics files grouped by the instruction families that use them, so that each group
 * loads when a form of its family is first evaluated (family-semantics.ts): the half- and
 * mixed-precision arithmetic (add, sub, mul, fma, neg, abs, min, max, tanh, ex2), cvt, and the
 * tensor cores (mma, wgmma, block-scaled mma). Each group's module (arithmetic-family.ts,
 * convert-family.ts, tensor-core.ts) exports one value of its type below.
 */
import type { Family, Form } from '../../catalog/instruction.ts';
import type { Input, Semantics } from './context.ts';

/** A group of semantics that loads as one (one chunk of the page's build). */
export type SemanticsFamily = 'arithmetic' | 'convert' | 'tensor-core';

export const SEMANTICS_FAMILIES: readonly SemanticsFamily[] = [
  'arithmetic',
  'convert',
  'tensor-core',
];

const OF_CATALOG_FAMILY: Readonly<Record<Family, SemanticsFamily>> = {
  half: 'arithmetic',
  mixed: 'arithmetic',
  convert: 'convert',
  matrix: 'tensor-core',
};

/** The group whose semantics evaluate the form. */
export function semanticsFamilyOf(form: Pick<Form, 'family'>): SemanticsFamily {
  return OF_CATALOG_FAMILY[form.family];
}

export interface ArithmeticSemantics {
  readonly family: 'arithmetic';
  readonly operations: Readonly<
    Record<
      'add' | 'sub' | 'mul' | 'fma' | 'neg' | 'abs' | 'min' | 'max' | 'tanh' | 'ex2',
      Semantics
    >
  >;
}

export interface ConvertSemantics {
  readonly family: 'convert';
  readonly operations: Readonly<Record<'convert', Semantics>>;
}

export interface TensorCoreSemantics {
  readonly family: 'tensor-core';
  readonly operations: Readonly<Record<'dot-product', Semantics>>;
  /** A matrix form's one element without steps (the pipeline's evaluateBits). */
  bits(form: Form, inputs: readonly Input[], target?: string): bigint;
  /** Why no tensor-core model covers the target, or null where one does. */
  targetProblem(target: string | undefined): string | null;
}

export interface FamilySemanticsMap {
  readonly arithmetic: ArithmeticSemantics;
  readonly convert: ConvertSemantics;
  readonly 'tensor-core': TensorCoreSemantics;
}

export type FamilySemantics = FamilySemanticsMap[SemanticsFamily];

/** Some of the groups, by name: what an evaluation may use. */
export type FamilySet = { readonly [F in SemanticsFamily]?: FamilySemanticsMap[F] };
