/** The half- and mixed-precision instructions' semantics, one group (family.ts). */
import { approx } from './approx.ts';
import { arithmetic } from './arithmetic.ts';
import type { ArithmeticSemantics } from './family.ts';
import { minmax } from './minmax.ts';
import { negabs } from './negabs.ts';

export const arithmeticFamily: ArithmeticSemantics = {
  family: 'arithmetic',
  operations: {
    add: arithmetic,
    sub: arithmetic,
    mul: arithmetic,
    fma: arithmetic,
    neg: negabs,
    abs: negabs,
    min: minmax,
    max: minmax,
    tanh: approx,
    ex2: approx,
  },
};
