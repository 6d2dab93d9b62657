/**
 * klv/fields rows made from their packet's item (klv-field-derivation.ts)
 * written as JSON bytes: the text JSON.stringify gives for fieldRowOfItem's
 * row, without making that row. Three quarters of a run's rows are such
 * fields; each repeats its packet's place, and every packet repeats the
 * names and units of the tag tables. So a row is five pieces of text made
 * once (the place, per packet; the name and the units with the keys around
 * them, per distinct text) and its four own values (seq, tag, rawHex, value).
 */
import { JsonTextBuffer, objectRowWriter } from './json-row-text.js';
import { fieldRowOfItem, type ItemField, type PacketPlace } from './klv-field-derivation.js';
import { fieldRowPieces, St0601ItemText } from './st0601-item-text.js';

/** The klv/fields row's fields, in the order the pieces below are made for. */
const ROW_FIELDS = ['seq', 'offset', 'packetIndex', 't', 'pid', 'klvIndex', 'tag', 'name', 'rawHex', 'value', 'units'];

/** Distinct names or units kept encoded; beyond, the cache starts again (the tag tables hold a few hundred). */
const MAX_CACHED_TEXTS = 4096;

const SEQ_KEY = Buffer.from('{"seq":');
const VALUE_KEY = Buffer.from(',"value":');

/** Texts made once and kept by the text they are made from. */
class TextCache {
  readonly #texts = new Map<string, Buffer>();

  constructor(private readonly make: (text: string) => string) {}

  of(text: string): Buffer {
    let bytes = this.#texts.get(text);
    if (bytes === undefined) {
      if (this.#texts.size >= MAX_CACHED_TEXTS) this.#texts.clear();
      bytes = Buffer.from(this.make(text));
      this.#texts.set(text, bytes);
    }
    return bytes;
  }
}

/** The text of a place: its fields, and the key of the tag after them. */
function placeText(place: PacketPlace): Uint8Array {
  const out = new JsonTextBuffer(128);
  out.text(`,"offset":`);
  out.number(place.offset);
  out.text(`,"packetIndex":`);
  out.number(place.packetIndex);
  out.text(`,"t":`);
  out.value(place.t);
  out.text(`,"pid":`);
  out.number(place.pid);
  out.text(`,"klvIndex":`);
  out.number(place.klvIndex);
  out.text(`,"tag":`);
  return Buffer.from(out.written());
}

/**
 * Writes klv/fields rows made from their packet's item with the fields `fields`; fields in another order than
 * these pieces are made for are written from the row object.
 */
export function itemFieldRowWriter(fields: readonly string[]): (field: ItemField, out: JsonTextBuffer) => void {
  const writeObject = objectRowWriter(fields);
  const writeRowObject = (field: ItemField, out: JsonTextBuffer): void => writeObject(fieldRowOfItem(field), out);
  if (fields.length !== ROW_FIELDS.length || fields.some((field, i) => field !== ROW_FIELDS[i])) return writeRowObject;
  const names = new TextCache((name) => `,"name":${JSON.stringify(name)},"rawHex":`);
  const units = new TextCache((unit) => `,"units":${JSON.stringify(unit)}}`);
  const noUnits = Buffer.from(',"units":null}');
  let place: PacketPlace | null = null;
  let placeBytes: Uint8Array = new Uint8Array(0);
  const fromBytes = new St0601ItemText(fieldRowPieces);
  return (field, out) => {
    if (field.packet !== place) {
      place = field.packet;
      placeBytes = placeText(place);
    }
    const start = out.length;
    out.bytes(SEQ_KEY);
    out.number(field.seq);
    out.bytes(placeBytes);
    // An ST 0601 item still as its bytes: written from them, unless the decoder would mark it with an error.
    const { triplet, span } = field;
    if (span != null && triplet != null && fromBytes.write(triplet, span, out)) return;
    const { item } = field;
    if (typeof item.tag !== 'number' || typeof item.name !== 'string' || typeof item.rawHex !== 'string' || (item.units !== null && typeof item.units !== 'string')) {
      // Not a KlvItem as the decoders make them: the row object's text.
      out.rewind(start);
      writeRowObject(field, out);
      return;
    }
    out.number(item.tag);
    out.bytes(names.of(item.name));
    out.string(item.rawHex);
    out.bytes(VALUE_KEY);
    out.value(item.value);
    out.bytes(item.units === null ? noUnits : units.of(item.units));
  };
}
