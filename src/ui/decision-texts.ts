import type { DecisionTexts } from '../present/step-words.ts';

let loading: Promise<DecisionTexts> | null = null;

/**
 * The documented decisions' words (src/engine/decisions.ts), loaded with the first trace that
 * cites one: most results cite none, the default page's included. One promise for the page, so
 * React's `use` finds it settled on every later render.
 */
export function loadDecisionTexts(): Promise<DecisionTexts> {
  loading ??= import('../engine/decisions.ts').then((m) => m.decision);
  return loading;
}
