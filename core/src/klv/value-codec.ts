/**
 * The contract every item value codec of a MISB local set fulfils: how many
 * bytes the value may have, what it means, how to read it (total, never
 * throwing) and how to write it back.
 */

/** MISB ST 0601 "Length" column: fixed, bounded or free. */
export type LengthRule =
  | { readonly kind: 'fixed'; readonly bytes: number }
  | { readonly kind: 'range'; readonly min: number; readonly max: number }
  | { readonly kind: 'choice'; readonly bytes: readonly number[] }
  | { readonly kind: 'variable' };

/**
 * Why a value's bytes could not be decoded, with the absolute offset of the
 * offending byte. Returned (not thrown) by {@link ValueCodec.decode}; a class
 * so the hot path can tell it from a value with one `instanceof`.
 */
export class ValueDecodeFailure {
  constructor(
    readonly message: string,
    readonly byteOffset: number,
  ) {}
}

export interface ValueCodec {
  /** The value type as the standard names it: 'uint16', 'int32', 'IMAPB', 'utf8', 'local set', 'DLP', 'VLP', 'series', ... */
  readonly valueType: string;
  readonly length: LengthRule;
  /** Valid range of the decoded value, for numeric values. */
  readonly range: { readonly min: number; readonly max: number } | null;
  /** Value step of one integer unit, for numeric values (the largest step when it depends on the length). */
  readonly resolution: number | null;
  /**
   * Decodes `bytes[start, end)`, whose length already satisfies {@link length}.
   * Returns the value (number, string or JSON-able object) or a failure; never throws.
   */
  decode(bytes: Uint8Array, start: number, end: number): unknown;
  /** Encodes a value of the shape {@link decode} returns; throws KlvEncodeError when it cannot. */
  encode(value: unknown): Uint8Array;
}

/** True when `length` satisfies `rule`. */
export function lengthAllowed(rule: LengthRule, length: number): boolean {
  switch (rule.kind) {
    case 'fixed':
      return length === rule.bytes;
    case 'range':
      return length >= rule.min && length <= rule.max;
    case 'choice':
      return rule.bytes.includes(length);
    case 'variable':
      return true;
  }
}

/** The rule as text for messages: "2 bytes", "1..8 bytes", "any length". */
export function describeLengthRule(rule: LengthRule): string {
  switch (rule.kind) {
    case 'fixed':
      return `${rule.bytes} byte${rule.bytes === 1 ? '' : 's'}`;
    case 'range':
      return `${rule.min}..${rule.max} bytes`;
    case 'choice':
      return `${rule.bytes.join(' or ')} bytes`;
    case 'variable':
      return 'any length';
  }
}
