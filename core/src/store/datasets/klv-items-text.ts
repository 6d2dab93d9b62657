/**
 * A metadata packet's items written as JSON bytes: the text JSON.stringify
 * gives for the array the decoders make again from the packet's triplet
 * (metadata-items-derivation.ts). An item as the ST 0601 and ST 0903
 * decoders make it holds `tag, name, units, rawHex, value, deprecated` and
 * an `error` after them when the value could not be decoded; its tag, name
 * and units come from the tag tables, the same in every packet, so the text
 * up to `"rawHex":` is made once per name. Any other array, or an item of
 * another shape (EG 0104 items carry a `keyHex`), is walked as any value.
 */
import { decodeSt0601ItemInto } from '../../klv/st0601-item.js';
import { frameSt0601Items } from '../../klv/st0601-packet.js';
import type { JsonTextBuffer } from './json-row-text.js';
import { ItemsOfTriplet, ST0601_KEY_NAME } from './metadata-items-derivation.js';
import { packetItemPieces, St0601ItemText } from './st0601-item-text.js';

const ITEM_KEYS = ['tag', 'name', 'units', 'rawHex', 'value', 'deprecated', 'error'];
/** Item names kept with their text; beyond, the cache starts again (the tag tables hold a few hundred). */
const MAX_CACHED_NAMES = 4096;

const VALUE_KEY = Buffer.from(',"value":');
const DEPRECATED = Buffer.from(',"deprecated":true');
const NOT_DEPRECATED = Buffer.from(',"deprecated":false');
const ERROR_KEY = Buffer.from(',"error":');
const CLOSE = Buffer.from('}');

/** The text of an item up to its raw value: `{"tag":2,"name":"Precision Time Stamp","units":"µs","rawHex":`. */
interface ItemHead {
  readonly tag: number;
  readonly units: string | null;
  readonly text: Buffer;
}

interface Item {
  tag: unknown;
  name: unknown;
  units: unknown;
  rawHex: unknown;
  value: unknown;
  deprecated: unknown;
  error?: unknown;
}

/** Writes items arrays; keeps the heads of the items it has written, by name. */
export class KlvItemsText {
  readonly #heads = new Map<string, ItemHead>();
  readonly #fromBytes = new St0601ItemText(packetItemPieces);

  write(items: unknown, out: JsonTextBuffer): void {
    if (items instanceof ItemsOfTriplet) return this.writeTriplet(items, out);
    if (!Array.isArray(items)) return out.value(items);
    const start = out.length;
    out.byte(0x5b);
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out.byte(0x2c);
      if (!this.item(items[i], out)) {
        // Not an item these pieces are made for: the whole array as any value is written.
        out.rewind(start);
        return out.value(items);
      }
    }
    out.byte(0x5d);
  }

  /** Items kept as an ST 0601 triplet written from its bytes (st0601-item-text.ts); those of other keys decoded first. */
  private writeTriplet(items: ItemsOfTriplet, out: JsonTextBuffer): void {
    const { raw } = items;
    if (raw === null || items.keyName !== ST0601_KEY_NAME) return this.write(items.decode(), out);
    const start = out.length;
    const spans = frameSt0601Items(raw, 0, raw.length);
    out.byte(0x5b);
    for (let i = 0; i < spans.length; i++) {
      if (i > 0) out.byte(0x2c);
      const span = spans[i];
      if (this.#fromBytes.write(raw, span, out)) continue;
      // An item the decoder marks with an error: the decoded item, as the array of decoded items would have it.
      if (!this.item(decodeSt0601ItemInto(span.tag, raw, span.valueOffset, span.valueOffset + span.length, span.tagOffset, null), out)) {
        out.rewind(start);
        return out.value(items.decode());
      }
    }
    out.byte(0x5d);
  }

  /** Writes an item of the decoders' shape; false when it is not one. */
  private item(value: unknown, out: JsonTextBuffer): boolean {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
    const item = value as Item;
    // The keys in order, without an array per item (Object.keys): for-in gives the own keys first, then any
    // enumerable one of Object.prototype, so a seventh key is `error` only if it is the item's own.
    let count = 0;
    for (const key in item) {
      if (count === ITEM_KEYS.length || key !== ITEM_KEYS[count]) return false;
      count++;
    }
    if (count < 6 || (count === 7 && !Object.hasOwn(item, 'error'))) return false;
    const { tag, name, units, rawHex, deprecated, error } = item;
    if (typeof tag !== 'number' || typeof name !== 'string' || (units !== null && typeof units !== 'string') || typeof rawHex !== 'string') return false;
    if (typeof deprecated !== 'boolean' || (count === 7 && typeof error !== 'string') || (item as { toJSON?: unknown }).toJSON !== undefined) return false;
    out.bytes(this.head(tag, name, units));
    out.string(rawHex);
    out.bytes(VALUE_KEY);
    if (!out.walkValue(item.value)) return false;
    out.bytes(deprecated ? DEPRECATED : NOT_DEPRECATED);
    if (count === 7) {
      out.bytes(ERROR_KEY);
      out.string(error as string);
    }
    out.bytes(CLOSE);
    return true;
  }

  private head(tag: number, name: string, units: string | null): Buffer {
    let head = this.#heads.get(name);
    if (head === undefined || head.tag !== tag || head.units !== units) {
      if (this.#heads.size >= MAX_CACHED_NAMES) this.#heads.clear();
      head = { tag, units, text: Buffer.from(`{"tag":${JSON.stringify(tag)},"name":${JSON.stringify(name)},"units":${JSON.stringify(units)},"rawHex":`) };
      this.#heads.set(name, head);
    }
    return head.text;
  }
}
