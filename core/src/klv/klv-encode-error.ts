/**
 * Thrown by KLV encoders when asked to encode a value the standard cannot
 * represent (out of range, wrong shape). Encoders build packets from our own
 * values, so a bad value is a programming error; decoders never throw.
 */
export class KlvEncodeError extends Error {
  readonly code = 'ERR_KLV_ENCODE';

  constructor(message: string) {
    super(message);
    this.name = 'KlvEncodeError';
  }
}
