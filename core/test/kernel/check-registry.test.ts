import { expect } from 'chai';
import { CheckRegistry } from '../../src/kernel/check-registry.js';
import { CoreError } from '../../src/kernel/core-error.js';
import type { AnyCheck } from '../../src/kernel/define-check.js';
import { recorder } from './fake-checks.js';

describe('CheckRegistry', () => {
  const pcrCheck = recorder('pcr-check', ['pcr']).check;
  const pesCheck = recorder('pes-check', ['pes', 'pcr']).check;

  it('registers checks and gives them back by id and in registration order', () => {
    const registry = new CheckRegistry().register(pesCheck).register(pcrCheck);
    expect(registry.get('pcr-check')).to.equal(pcrCheck);
    expect(registry.get('absent')).to.be.undefined;
    expect(registry.has('pes-check')).to.be.true;
    expect(registry.list().map((c) => c.id)).to.deep.equal(['pes-check', 'pcr-check']);
    expect(registry.size).to.equal(2);
  });

  it('refuses a second check with the same id', () => {
    const registry = new CheckRegistry().register(pcrCheck);
    const again = { ...pcrCheck, version: '2.0.0' };
    expect(() => registry.register(again))
      .to.throw(CoreError, "check 'pcr-check' is already registered (version 1.0.0); cannot register version 2.0.0")
      .with.property('code', 'ERR_CHECK_DUPLICATE');
  });

  it('validates a plugin that did not come through defineCheck', () => {
    const plugin = { id: 'Bad Id', version: '1.0.0', title: 't', consumes: ['pcr'], rules: pcrCheck.rules, create: () => ({}) } as unknown as AnyCheck;
    expect(() => new CheckRegistry().register(plugin)).to.throw(CoreError).with.property('code', 'ERR_CHECK_INVALID');
  });

  it('names the registered ids when a check is not found', () => {
    const registry = new CheckRegistry().registerAll([pcrCheck, pesCheck]);
    expect(() => registry.require('klv-checksum'))
      .to.throw(CoreError, "no check 'klv-checksum' (registered: pcr-check, pes-check)")
      .with.property('code', 'ERR_CHECK_NOT_FOUND');
    expect(registry.select(['pes-check']).map((c) => c.id)).to.deep.equal(['pes-check']);
    expect(registry.select().map((c) => c.id)).to.deep.equal(['pcr-check', 'pes-check']);
  });

  it('lists which checks consume which kind', () => {
    const registry = new CheckRegistry().registerAll([pcrCheck, pesCheck]);
    expect(registry.consumersOf('pcr').map((c) => c.id)).to.deep.equal(['pcr-check', 'pes-check']);
    expect(registry.consumers()).to.deep.equal({
      pcr: ['pcr-check', 'pes-check'],
      discontinuity: [],
      'psi-section': [],
      pat: [],
      pmt: [],
      pes: ['pes-check'],
      'ts-error': [],
      'pid-stats': [],
      'klv-packet': [],
      'metadata-packet': [],
      'klv-field': [],
      'klv-error': [],
    });
  });
});
