/**
 * Reads the bits of a raw byte sequence payload, most significant first:
 * fixed-length u(n) and the Exp-Golomb codes ue(v) and se(v) (ITU-T H.264
 * 7.2 and 9.1, H.265 9.2). Never throws: reading past the end gives zeros
 * and sets `overrun`, which the caller checks once at the end.
 */

/** ue(v) with more leading zeros than this is not a value a parameter set holds (H.264 9.1: at most 32 bits of value). */
const MAX_LEADING_ZEROS = 31;

export class RbspBitReader {
  private position = 0;
  /** A read went past the last bit (or met an impossible Exp-Golomb code). */
  overrun = false;

  constructor(private readonly bytes: Uint8Array) {}

  /** u(1). */
  bit(): number {
    const p = this.position;
    if (p >= this.bytes.length * 8) {
      this.overrun = true;
      return 0;
    }
    this.position = p + 1;
    return (this.bytes[p >> 3] >> (7 - (p & 7))) & 1;
  }

  /** u(n), n up to 32. */
  bits(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) value = value * 2 + this.bit();
    return value;
  }

  skip(n: number): void {
    this.position += n;
    if (this.position > this.bytes.length * 8) this.overrun = true;
  }

  /** ue(v) (H.264 9.1): leading zeros, a 1, then as many bits. */
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) {
      if (this.overrun || ++zeros > MAX_LEADING_ZEROS) {
        this.overrun = true;
        return 0;
      }
    }
    return 2 ** zeros - 1 + this.bits(zeros);
  }

  /** se(v) (H.264 9.1.1): 1, -1, 2, -2 ... for codeNum 1, 2, 3, 4 ... */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}
