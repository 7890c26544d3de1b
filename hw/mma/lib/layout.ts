/**
 * Which matrix element each register slot of each lane holds: the fragment layouts of the PTX
 * ISA, in the catalog (src/catalog/matrix-fragments.ts), where the GPU program of one element
 * uses them too. hw/mma/mma-capture.cu has the same functions (`fragment_coordinate`);
 * tests/hw/mma-harness.test.ts checks the two against each other through the harness's self-test.
 */
export {
  fragmentCoordinate,
  fragmentElements,
  matrixDims,
  slotBits,
  type ElementCoordinate,
  type FragmentOperand,
} from '../../../src/catalog/matrix-fragments.ts';
