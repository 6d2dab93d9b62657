/**
 * The Series type of MISB ST 0903.6: elements one after another, each a
 * BER length and that many bytes. VTarget packs, Location packs, and the
 * Algorithm, Ontology, VChip and VObject local sets all travel in Series.
 */
import { encodeBerLength, readBerLength } from './ber-length.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { decodeOk, type TagCodec, type TagDecodeContext, type TagDecodeOutcome } from './st0903-tagged-set.js';

/**
 * A Series of elements that `element` decodes. A bad element is reported
 * and kept as null; a broken length ends the series, keeping the elements
 * before it.
 */
export function seriesCodec(element: TagCodec, elementName: string): TagCodec {
  return {
    decode(bytes, start, end, context) {
      const values: unknown[] = [];
      let pos = start;
      let index = 0;
      while (pos < end) {
        const len = readBerLength(bytes, pos, end);
        if (!len.ok) return seriesFailure(values, context, len.byteOffset, `${elementName} ${index}: ${len.message}`);
        const elementStart = pos + len.size;
        const elementEnd = elementStart + len.length;
        if (elementEnd > end) {
          return seriesFailure(values, context, pos, `${elementName} ${index}: length ${len.length} runs past the series (${end - elementStart} left)`);
        }
        const outcome = element.decode(bytes, elementStart, elementEnd, context);
        if (outcome.ok) {
          values.push(outcome.value);
        } else {
          context.problems.push({
            type: outcome.type,
            tag: null,
            byteOffset: pos,
            message: `${context.path === '' ? '' : `${context.path}: `}${elementName} ${index}: ${outcome.message}`,
          });
          values.push(null);
        }
        pos = elementEnd;
        index++;
      }
      return decodeOk(values);
    },
    encode(value) {
      if (!Array.isArray(value)) throw new KlvEncodeError(`a series of ${elementName} must be an array`);
      const parts: Uint8Array[] = [];
      for (const item of value) {
        const bytes = element.encode(item);
        parts.push(encodeBerLength(bytes.length), bytes);
      }
      return concatBytes(parts);
    },
  };
}

/** The elements decoded so far stay; the broken rest is a problem at its byte. */
function seriesFailure(values: unknown[], context: TagDecodeContext, byteOffset: number, message: string): TagDecodeOutcome {
  context.problems.push({ type: 'raw-decode-error', tag: null, byteOffset, message: `${context.path === '' ? '' : `${context.path}: `}${message}` });
  return decodeOk(values);
}

