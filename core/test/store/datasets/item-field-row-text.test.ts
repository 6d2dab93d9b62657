import { expect } from 'chai';
import type { KlvItem, MetadataPacketObservation } from '../../../src/kernel/observations.js';
import { itemFieldRowWriter } from '../../../src/store/datasets/item-field-row-text.js';
import { JsonTextBuffer } from '../../../src/store/datasets/json-row-text.js';
import { fieldRowOfItem, type ItemField, type PacketPlace } from '../../../src/store/datasets/klv-field-derivation.js';
import { rowCodecOf } from '../../../src/store/datasets/observation-row-codec.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';

const FIELDS = rowCodecOf('klv-field').datasetFields;

/** The text the writer gives for each field, and JSON.stringify's text of each field's row object. */
function bothTexts(fields: readonly ItemField[], rowFields: readonly string[] = FIELDS): { written: string[]; stringified: string[] } {
  const write = itemFieldRowWriter(rowFields);
  const out = new JsonTextBuffer(16);
  const written = fields.map((field) => (write(field, out), out.take()));
  return { written, stringified: fields.map((field) => JSON.stringify(fieldRowOfItem(field))) };
}

const place: PacketPlace = { offset: 2 ** 33 + 5, packetIndex: 45_000_000, t: 1234.000_011_1, pid: 258, klvIndex: 7 };
const item = (overrides: Partial<KlvItem>): KlvItem => ({ tag: 13, name: 'Sensor Latitude', units: '°', rawHex: '342dddfe', value: 36.688477926276846, deprecated: false, ...overrides });

describe('klv/fields rows made from their packet\'s item, written as JSON bytes', () => {
  it('writes every field of the generated streams\' packets as JSON.stringify writes its row', () => {
    for (const { name, options } of GENERATED_CASES) {
      const packets = generatedObservations(options).observations.filter((o): o is MetadataPacketObservation => o.kind === 'metadata-packet');
      // A new place object per packet, as the reads make them; the same one for all its fields.
      const fields = packets.flatMap((packet, p) => {
        const at: PacketPlace = { offset: packet.offset, packetIndex: packet.packetIndex, t: packet.t, pid: packet.pid, klvIndex: packet.klvIndex };
        return packet.items.map((item, i) => ({ seq: 1000 * p + i, packet: at, item }));
      });
      expect(fields.length, name).to.be.greaterThan(100);
      const { written, stringified } = bothTexts(fields);
      expect(written, name).to.deep.equal(stringified);
    }
  });

  it('writes names and units that need escaping, no units, a null t, nested and non-finite values as JSON.stringify does', () => {
    const nowhere: PacketPlace = { ...place, t: null };
    const fields: ItemField[] = [
      { seq: 1, packet: place, item: item({}) },
      { seq: 2, packet: place, item: item({ name: 'odd "name"\\ µ', units: 'tab\there', value: { nested: [1, 'two', null] } }) },
      { seq: 3, packet: nowhere, item: item({ units: null, value: NaN, rawHex: '' }) },
      { seq: 4, packet: nowhere, item: item({ tag: 99, name: 'Unknown item 99', value: 'text with ° and "quotes"' }) },
      { seq: 2 ** 40, packet: place, item: item({ value: -0 }) },
    ];
    const { written, stringified } = bothTexts(fields);
    expect(written).to.deep.equal(stringified);
  });

  it('writes an item the decoders would not make (a name not text, an undefined value) as the row object\'s text, null for undefined', () => {
    const odd = { ...item({}), name: 42 } as unknown as KlvItem;
    const { written, stringified } = bothTexts([{ seq: 1, packet: place, item: odd }]);
    expect(written).to.deep.equal(stringified);
    const { written: undefinedValue } = bothTexts([{ seq: 1, packet: place, item: item({ value: undefined }) }]);
    expect(JSON.parse(undefinedValue[0])).to.have.property('value', null);
  });

  it('keeps writing the same text once more names have come than it keeps encoded', () => {
    const fields = Array.from({ length: 5000 }, (_, i) => ({ seq: i, packet: place, item: item({ name: `Unknown item ${i % 4500}`, units: `u${i}` }) }));
    const { written, stringified } = bothTexts(fields);
    expect(written).to.deep.equal(stringified);
  });

  it('writes rows whose fields come in another order from the row object', () => {
    const reordered = [...FIELDS].reverse();
    const field: ItemField = { seq: 9, packet: place, item: item({}) };
    const { written } = bothTexts([field], reordered);
    const row = fieldRowOfItem(field);
    expect(written[0]).to.equal(JSON.stringify(Object.fromEntries(reordered.map((name) => [name, row[name]]))));
  });
});
