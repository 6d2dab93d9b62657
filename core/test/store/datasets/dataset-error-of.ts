/** The DatasetError `work` throws (failing the test when it throws something else, or nothing). */
import { expect } from 'chai';
import { DatasetError } from '../../../src/store/datasets/dataset-error.js';

export function datasetErrorOf(work: () => unknown): DatasetError {
  try {
    work();
  } catch (error) {
    expect(error).to.be.an.instanceOf(DatasetError);
    return error as DatasetError;
  }
  throw new Error('expected a DatasetError');
}
