/**
 * ST 0601 items written as JSON straight from their bytes in a packet's
 * triplet, for the klv/metadata-packets and klv/fields exports. Decoding an
 * item first (decodeSt0601ItemInto) makes its hex as a string and an object
 * only to be written; here the text around the value is made once per tag,
 * the hex is written from the bytes and only the value is decoded. The text
 * is what JSON.stringify gives for the decoded item (or its field row): the
 * name, units and deprecation are the tag table's, as the decoder takes
 * them. An item the decoder would mark with an error (unknown tag, a length
 * the table does not allow, a value it cannot decode) is not written here:
 * the caller writes the decoded item.
 */
import type { LocalSetItem } from '../../klv/local-set.js';
import { st0601Item, type St0601ItemSpec } from '../../klv/st0601-items.js';
import { lengthAllowed, ValueDecodeFailure } from '../../klv/value-codec.js';
import type { JsonTextBuffer } from './json-row-text.js';

/** The text of an item before its hex (`head`, ending with the `"rawHex":` key) and after its value (`tail`). */
export interface ItemPieces {
  readonly head: Buffer;
  readonly tail: Buffer;
}

const VALUE_KEY = Buffer.from(',"value":');

/** An item as a metadata packet's `items` hold it: `{"tag":..,"name":..,"units":..,"rawHex":..,"value":..,"deprecated":..}`. */
export function packetItemPieces(spec: St0601ItemSpec): ItemPieces {
  return {
    head: Buffer.from(`{"tag":${spec.tag},"name":${JSON.stringify(spec.name)},"units":${JSON.stringify(spec.units)},"rawHex":`),
    tail: Buffer.from(`,"deprecated":${spec.deprecated}}`),
  };
}

/** A klv/fields row from its tag's value on (the text before it, up to `"tag":`, is its packet's): `2,"name":..,"rawHex":..,"value":..,"units":..}`. */
export function fieldRowPieces(spec: St0601ItemSpec): ItemPieces {
  return {
    head: Buffer.from(`${spec.tag},"name":${JSON.stringify(spec.name)},"rawHex":`),
    tail: Buffer.from(`,"units":${JSON.stringify(spec.units)}}`),
  };
}

/** Writes ST 0601 items from their bytes in one layout; keeps each tag's pieces once made. */
export class St0601ItemText {
  readonly #pieces: (ItemPieces | undefined)[] = [];

  constructor(private readonly layout: (spec: St0601ItemSpec) => ItemPieces) {}

  /**
   * Writes the item framed as `span` in `bytes` and returns true; returns false, having written nothing, for an
   * item the decoder marks with an error or whose value is not plain JSON data.
   */
  write(bytes: Uint8Array, span: LocalSetItem, out: JsonTextBuffer): boolean {
    const spec = st0601Item(span.tag);
    if (spec === undefined || !lengthAllowed(spec.length, span.length)) return false;
    const start = span.valueOffset;
    const end = start + span.length;
    const value = spec.codec.decode(bytes, start, end);
    if (value instanceof ValueDecodeFailure) return false;
    const pieces = this.#pieces[spec.tag] ?? this.piecesOf(spec);
    const at = out.length;
    out.bytes(pieces.head);
    out.hexOf(bytes, start, end);
    out.bytes(VALUE_KEY);
    if (!out.walkValue(value)) {
      out.rewind(at);
      return false;
    }
    out.bytes(pieces.tail);
    return true;
  }

  private piecesOf(spec: St0601ItemSpec): ItemPieces {
    const pieces = this.layout(spec);
    this.#pieces[spec.tag] = pieces;
    return pieces;
  }
}
