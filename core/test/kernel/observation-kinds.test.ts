import { expect } from 'chai';
import { OBSERVATION_KINDS, isObservationKind, observationKindIndex } from '../../src/kernel/observation-kinds.js';
import type { ObservationKind } from '../../src/kernel/observations.js';

describe('observation kinds', () => {
  it('gives each kind its position in OBSERVATION_KINDS as dispatch index', () => {
    expect(OBSERVATION_KINDS.map((kind) => observationKindIndex(kind))).to.deep.equal(OBSERVATION_KINDS.map((_, i) => i));
  });

  it('gives -1 for a string that is no kind', () => {
    expect(observationKindIndex('video-frame' as ObservationKind)).to.equal(-1);
    expect([isObservationKind('pmt'), isObservationKind('PMT'), isObservationKind(3)]).to.deep.equal([true, false, false]);
  });
});
