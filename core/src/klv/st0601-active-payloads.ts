/**
 * ST 0601 item 139, Active Payloads: a variable-length bit field in which
 * bit n, counted from the least significant bit of the last byte, says
 * whether the payload with ID n (item 138) is active (ST 0601.17 item 139).
 */
import { requireNumber } from './big-endian-integer.js';
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

export interface St0601ActivePayloads {
  /** IDs of the active payloads, ascending. */
  readonly activeIds: number[];
}

export const st0601ActivePayloadsCodec: ValueCodec = {
  valueType: 'bit field (variable)',
  length: { kind: 'range', min: 1, max: 64 },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const activeIds: number[] = [];
    for (let i = end - 1; i >= start; i--) {
      const byte = bytes[i];
      for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) activeIds.push((end - 1 - i) * 8 + bit);
    }
    return { activeIds } satisfies St0601ActivePayloads;
  },
  encode(value: unknown): Uint8Array {
    const ids = typeof value === 'object' && value !== null ? (value as { activeIds?: unknown }).activeIds : undefined;
    if (!Array.isArray(ids)) throw new KlvEncodeError(`active payloads need { activeIds: number[] }, got ${JSON.stringify(value)}`);
    const numbers = (ids as unknown[]).map((id) => requireNumber(id, 'payload ID'));
    const top = numbers.reduce((a, b) => Math.max(a, b), 0);
    const out = new Uint8Array(Math.floor(top / 8) + 1);
    for (const id of numbers) out[out.length - 1 - Math.floor(id / 8)] |= 1 << (id % 8);
    return out;
  },
};
