import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { KlvItem, MetadataPacketObservation } from '../../../src/kernel/observations.js';
import { JsonTextBuffer } from '../../../src/store/datasets/json-row-text.js';
import { KlvItemsText } from '../../../src/store/datasets/klv-items-text.js';
import { ItemsOfTriplet, itemsFromTriplet } from '../../../src/store/datasets/metadata-items-derivation.js';
import { scanKlvStream } from '../../../src/klv/klv-triplet.js';
import { fixtureOrSkip } from '../../../../test-support/fixtures.js';
import { malformedSt0601Packets } from '../../klv/st0601-hand-made-packets.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';

function written(values: readonly unknown[]): string[] {
  const items = new KlvItemsText();
  const out = new JsonTextBuffer(16);
  return values.map((value) => (items.write(value, out), out.take()));
}

const item = (overrides: Partial<KlvItem>): KlvItem => ({ tag: 13, name: 'Sensor Latitude', units: '°', rawHex: '342dddfe', value: 36.688477926276846, deprecated: false, ...overrides });

describe('a metadata packet\'s items written as JSON bytes', () => {
  it('writes the items of every packet of the generated streams as JSON.stringify writes them (decoding errors, nested values and all)', () => {
    for (const { name, options } of GENERATED_CASES) {
      const itemLists = generatedObservations(options).observations.filter((o): o is MetadataPacketObservation => o.kind === 'metadata-packet').map((packet) => packet.items);
      expect(itemLists.length, name).to.be.greaterThan(10);
      expect(written(itemLists), name).to.deep.equal(itemLists.map((items) => JSON.stringify(items)));
    }
  });

  it('writes items whose tag or units changed under a name already written, and escapes what needs escaping', () => {
    const lists = [
      [item({}), item({ tag: 14 }), item({ units: null }), item({ units: 'm' })],
      [item({ name: 'odd "name"\\', rawHex: '', value: 'a "quoted" µ value', deprecated: true, error: 'bad\nvalue' })],
      [item({ value: { nested: [1, NaN, { deeper: null }] } }), item({ value: -0 }), item({ value: 2 ** 53 + 2 })],
      [],
    ];
    expect(written(lists)).to.deep.equal(lists.map((items) => JSON.stringify(items)));
  });

  it('leaves to the walk of any value what is not an item of the decoders\' shape (another key order, EG 0104\'s keyHex, an undefined value, a toJSON), and writes what is not an array', () => {
    const { tag, keyHex, ...rest } = { ...item({}), keyHex: '060e2b34' };
    const lists: unknown[] = [
      [item({}), { tag, keyHex, ...rest }],
      [item({}), { ...item({}), value: undefined }],
      [item({}), { name: 'Sensor Latitude', tag: 13, units: '°', rawHex: '00', value: 1, deprecated: false }],
      [item({}), { ...item({}), extra: 1 }],
      [item({}), { ...item({}), value: { toJSON: () => 'mine' } }],
      [item({}), Object.assign(Object.create({ inherited: 1 }) as object, item({}))],
      [item({}), null, 'text'],
      { not: 'an array' },
    ];
    expect(written(lists)).to.deep.equal(lists.map((items) => JSON.stringify(items)));
  });

  it('writes the items of packets kept as their ST 0601 triplet from the bytes as JSON.stringify writes the decoded items: real recordings, generated streams, and packets with what the decoder reports', function () {
    const realflight = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
    const generated = GENERATED_CASES.flatMap(({ options }) =>
      generatedObservations(options).observations.flatMap((o) => (o.kind === 'klv-packet' && o.keyName === 'st0601-uas-datalink-ls' ? [o.raw] : [])),
    );
    const triplets = [...scanKlvStream(realflight).triplets.map((t) => realflight.slice(t.keyOffset, t.end)), ...generated, ...malformedSt0601Packets()];
    expect(generated.length).to.be.greaterThan(10);
    const kept = triplets.map((raw, seq) => new ItemsOfTriplet(raw, 'st0601-uas-datalink-ls', seq));
    expect(written(kept)).to.deep.equal(triplets.map((raw, seq) => JSON.stringify(itemsFromTriplet(raw, 'st0601-uas-datalink-ls', seq))));
  });

  it('writes the items of a packet of another key kept as its triplet decoded, and tells a missing triplet', function () {
    const vmti = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'jmisb_0903.bin')));
    const [triplet] = scanKlvStream(vmti).triplets;
    const raw = vmti.slice(triplet.keyOffset, triplet.end);
    const items = itemsFromTriplet(raw, 'st0903-vmti-ls', 1);
    expect(items.length).to.be.greaterThan(0);
    expect(written([new ItemsOfTriplet(raw, 'st0903-vmti-ls', 1)])).to.deep.equal([JSON.stringify(items)]);
    expect(() => written([new ItemsOfTriplet(null, 'st0601-uas-datalink-ls', 7)])).to.throw('metadata packet 7 is stored as its triplet, but the triplet is missing');
  });

  it('does not take an enumerable key of Object.prototype for an item\'s own error', () => {
    const lists = [[item({})], [item({ error: 'own' })]];
    let texts: string[];
    Object.defineProperty(Object.prototype, 'error', { value: 'inherited', enumerable: true, configurable: true });
    try {
      texts = written(lists);
    } finally {
      delete (Object.prototype as { error?: unknown }).error;
    }
    expect(texts).to.deep.equal(lists.map((items) => JSON.stringify(items)));
  });
});
