/**
 * Table-driven decoding and encoding of tagged local sets: the MISB ST 0903
 * VMTI LS and every set nested in it (VTarget, VMask, VObject, VFeature,
 * VTracker, VChip, Algorithm and Ontology LS), and the ST 0102 security LS.
 * All of them are SMPTE ST 336 local sets with BER-OID tags and BER lengths,
 * so one loop serves them all; each set only brings its tag table.
 *
 * Decoding is total: framing errors, unknown tags, duplicate tags and values
 * of the wrong length become problems with their byte position, and the item
 * keeps its raw hex.
 */
import { encodeBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { type LocalSetItem, parseLocalSet } from './local-set.js';
import { concatBytes } from './nested-local-set-codec.js';

/** What a value decoder learns from the set around it. */
export interface TagDecodeContext {
  /**
   * Version item of the enclosing top-level set, or null when absent. For
   * VMTI (tag 4) it matters: ST 0903.4 moved the real-valued items to IMAPB,
   * older versions used linearly mapped integers.
   */
  readonly version: number | null;
  /** Where nested sets report their problems. */
  readonly problems: KlvProblem[];
  /** Human path of the enclosing set, for messages (e.g. "VTarget 3"). */
  readonly path: string;
}

/** A value decoder's answer: the value, or why the bytes cannot be one. */
export type TagDecodeOutcome =
  | { readonly ok: true; readonly value: unknown; readonly lengthWarning?: string }
  | { readonly ok: false; readonly type: 'bad-item-length' | 'raw-decode-error'; readonly message: string };

/** How one kind of value is read from and written to bytes. */
export interface TagCodec {
  /** Decodes `bytes[start, end)`; never throws. */
  decode(bytes: Uint8Array, start: number, end: number, context: TagDecodeContext): TagDecodeOutcome;
  /** Encodes a value as the decoder returns it; throws {@link KlvEncodeError} on a value it cannot encode. */
  encode(value: unknown): Uint8Array;
}

export interface TagSpec {
  readonly name: string;
  readonly units: string | null;
  readonly codec: TagCodec;
  /** The standard requires the item in every instance of the set. */
  readonly mandatory?: boolean;
  readonly deprecated?: boolean;
}

export type TagTable = ReadonlyMap<number, TagSpec>;

/** An item to encode: what a caller builds, and also any {@link DecodedItem}. */
export interface TaggedItemInput {
  readonly tag: number;
  readonly value: unknown;
  /** Used when `value` is null (an unknown or undecodable item kept as raw hex). */
  readonly rawHex?: string;
}

export function decodeOk(value: unknown): TagDecodeOutcome {
  return { ok: true, value };
}

/** A value read despite a length the standard does not allow: kept, and reported as 'bad-item-length'. */
export function decodeOkWithLengthWarning(value: unknown, lengthWarning: string): TagDecodeOutcome {
  return { ok: true, value, lengthWarning };
}

export function badLength(message: string): TagDecodeOutcome {
  return { ok: false, type: 'bad-item-length', message };
}

/**
 * Decodes the local set in `bytes[start, end)` with `table`. Problems go to
 * `context.problems`; items come back in stream order, unknown and
 * undecodable ones included with `value: null`. With `versionTag`, the
 * set's own version item (wherever it sits in the set) sets the context
 * version before any item is decoded; without one, the parent context's
 * version stands.
 */
export function decodeTaggedSet(
  bytes: Uint8Array,
  start: number,
  end: number,
  table: TagTable,
  parentContext: TagDecodeContext,
  versionTag?: number,
): DecodedItem[] {
  const framed = parseLocalSet(bytes, start, end);
  const context = versionTag === undefined ? parentContext : withVersionFrom(bytes, framed.items, versionTag, parentContext);
  const problems = context.problems;
  const prefix = context.path === '' ? '' : `${context.path}: `;
  const items: DecodedItem[] = [];
  // Sets hold a few dozen items at most: a linear scan beats a Set here.
  const seen: number[] = [];
  for (const item of framed.items) {
    const spec = table.get(item.tag);
    const valueEnd = item.valueOffset + item.length;
    const rawHex = bytesToHex(bytes, item.valueOffset, valueEnd);
    // A MISB local set carries each item once; a repeat is reported and still decoded.
    if (seen.includes(item.tag)) {
      problems.push({ type: 'duplicate-tag', tag: item.tag, byteOffset: item.tagOffset, message: `${prefix}tag ${item.tag} appears more than once` });
    } else {
      seen.push(item.tag);
    }
    if (spec === undefined) {
      problems.push({ type: 'unknown-tag', tag: item.tag, byteOffset: item.tagOffset, message: `${prefix}tag ${item.tag} is not defined` });
      items.push({ tag: item.tag, name: `Unknown tag ${item.tag}`, units: null, rawHex, value: null, deprecated: false });
      continue;
    }
    const outcome = spec.codec.decode(bytes, item.valueOffset, valueEnd, context);
    if (outcome.ok) {
      items.push({ tag: item.tag, name: spec.name, units: spec.units, rawHex, value: outcome.value, deprecated: spec.deprecated === true });
      if (outcome.lengthWarning !== undefined) {
        problems.push({ type: 'bad-item-length', tag: item.tag, byteOffset: item.tagOffset, message: `${prefix}${spec.name}: ${outcome.lengthWarning}` });
      }
    } else {
      problems.push({ type: outcome.type, tag: item.tag, byteOffset: item.tagOffset, message: `${prefix}${spec.name}: ${outcome.message}` });
      items.push({
        tag: item.tag,
        name: spec.name,
        units: spec.units,
        rawHex,
        value: null,
        deprecated: spec.deprecated === true,
        error: outcome.message,
      });
    }
  }
  for (const error of framed.errors) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: error.byteOffset, message: `${prefix}${error.message}` });
  }
  for (const [tag, spec] of table) {
    if (spec.mandatory === true && !seen.includes(tag)) {
      problems.push({ type: 'missing-mandatory', tag, byteOffset: start, message: `${prefix}mandatory ${spec.name} (tag ${tag}) is missing` });
    }
  }
  return items;
}

/** The context with the version read from the set's `versionTag` item (first occurrence), if it is a 1 to 2 byte integer. */
function withVersionFrom(bytes: Uint8Array, items: readonly LocalSetItem[], versionTag: number, context: TagDecodeContext): TagDecodeContext {
  for (const item of items) {
    if (item.tag !== versionTag) continue;
    if (item.length < 1 || item.length > 2) return context;
    const version = item.length === 1 ? bytes[item.valueOffset] : bytes[item.valueOffset] * 256 + bytes[item.valueOffset + 1];
    return { version, problems: context.problems, path: context.path };
  }
  return context;
}

/** Encodes items as a local set (tag, BER length, value each), in the order given. */
export function encodeTaggedSet(items: readonly TaggedItemInput[], table: TagTable): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const item of items) {
    const value = encodeItemValue(item, table);
    parts.push(encodeBerOid(item.tag), encodeBerLength(value.length), value);
  }
  return concatBytes(parts);
}

function encodeItemValue(item: TaggedItemInput, table: TagTable): Uint8Array {
  if (item.value instanceof Uint8Array) return item.value;
  if (item.value === null || item.value === undefined) {
    const raw = typeof item.rawHex === 'string' ? hexToBytes(item.rawHex) : null;
    if (raw === null) throw new KlvEncodeError(`tag ${item.tag}: no value and no raw hex to encode`);
    return raw;
  }
  const spec = table.get(item.tag);
  if (spec === undefined) throw new KlvEncodeError(`tag ${item.tag} is not defined; pass its value as a Uint8Array`);
  return spec.codec.encode(item.value);
}

/**
 * A local set nested as the value of an item (VObject, VTracker, ...):
 * decodes to its {@link DecodedItem} list, problems named by `name`.
 */
export function nestedSetCodec(table: TagTable, name: string): TagCodec {
  return {
    decode(bytes, start, end, context) {
      const path = context.path === '' ? name : `${context.path} / ${name}`;
      return decodeOk(decodeTaggedSet(bytes, start, end, table, { version: context.version, problems: context.problems, path }));
    },
    encode(value) {
      if (!Array.isArray(value)) throw new KlvEncodeError(`${name} must be given as an array of { tag, value } items`);
      return encodeTaggedSet(value as TaggedItemInput[], table);
    },
  };
}
