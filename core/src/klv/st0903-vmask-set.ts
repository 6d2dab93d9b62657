/**
 * MISB ST 0903.6 VMask LS (VTarget tag 101): the outline of a
 * target as a polygon of pixel numbers (tag 1) or as a bit mask of pixel
 * runs (tag 2). Pixel numbers are ST 0903.6 pixel numbers: (row - 1) * width +
 * column, rows and columns counted from 1.
 */
import { encodeBerLength, readBerLength } from './ber-length.js';
import { encodeUnsigned, minimalUnsignedLength, readUnsigned } from './big-endian-integer.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { seriesCodec } from './st0903-series.js';
import { badLength, decodeOk, nestedSetCodec, type TagCodec, type TagTable } from './st0903-tagged-set.js';
import { uintCodec } from './st0903-value-codecs.js';

/**
 * ST 0903.6 Pixel Run Pack: a BER length n, the first pixel number in n
 * bytes, then the run length as a BER-encoded count. Decodes to
 * `{ index, length }`.
 */
export const pixelRunCodec: TagCodec = {
  decode(bytes, start, end) {
    const indexSize = readBerLength(bytes, start, end);
    if (!indexSize.ok) return badLength(indexSize.message);
    const indexStart = start + indexSize.size;
    const indexEnd = indexStart + indexSize.length;
    if (indexSize.length < 1 || indexSize.length > 6 || indexEnd >= end) {
      return badLength(`pixel index of ${indexSize.length} bytes does not fit a ${end - start}-byte pixel run`);
    }
    const run = readBerLength(bytes, indexEnd, end);
    if (!run.ok) return badLength(run.message);
    if (indexEnd + run.size !== end) return badLength(`pixel run has ${end - indexEnd - run.size} bytes left over`);
    return decodeOk({ index: readUnsigned(bytes, indexStart, indexSize.length), length: run.length });
  },
  encode(value) {
    const { index, length } = (value ?? {}) as { index?: unknown; length?: unknown };
    if (typeof index !== 'number' || typeof length !== 'number') throw new KlvEncodeError('a pixel run needs numeric index and length');
    const indexBytes = encodeUnsigned(index, minimalUnsignedLength(index));
    return concatBytes([encodeBerLength(indexBytes.length), indexBytes, encodeBerLength(length)]);
  },
};

export const ST0903_VMASK_TAGS: TagTable = new Map([
  [1, { name: 'Polygon', units: 'pixel number', codec: seriesCodec(uintCodec(6), 'vertex') }],
  [2, { name: 'Bit Mask Series', units: null, codec: seriesCodec(pixelRunCodec, 'pixel run') }],
]);

export const vmaskSetCodec = nestedSetCodec(ST0903_VMASK_TAGS, 'VMask');
