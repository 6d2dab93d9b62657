/**
 * The error value every KLV parser returns instead of throwing: decoding is
 * total (DESIGN.md, core/klv), so malformed bytes become data that names the
 * absolute byte position where decoding stopped.
 */
export interface KlvDecodeError {
  readonly ok: false;
  readonly message: string;
  /** Absolute offset, in the buffer handed to the parser, of the offending byte. */
  readonly byteOffset: number;
}

/** Builds a {@link KlvDecodeError}. */
export function klvError(message: string, byteOffset: number): KlvDecodeError {
  return { ok: false, message, byteOffset };
}
