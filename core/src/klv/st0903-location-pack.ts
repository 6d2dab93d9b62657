/**
 * The geospatial packs of MISB ST 0903.6 ("Location", "Velocity" and
 * "Acceleration"): Defined-Length Truncation Packs of IMAPB
 * values. A Location is latitude IMAPB(-90, 90, 4), longitude
 * IMAPB(-180, 180, 4) and height IMAPB(-900, 19000, 2), optionally followed by
 * three standard deviations IMAPB(0, 650, 2) and then three correlation
 * coefficients IMAPB(-1, 1, 2). Velocity and Acceleration have three
 * IMAPB(-900, 900, 2) components and the same optional tails. Before
 * ST 0903.4 the same fields were linearly mapped unsigned integers of the
 * same sizes.
 */
import { imapbForward, imapbReverse, type ImapbMapping, type ImapbValue } from './imapb.js';
import { imapbCodec } from './imapb-codec.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { seriesCodec } from './st0903-series.js';
import { badLength, decodeOk, type TagCodec } from './st0903-tagged-set.js';
import { readLegacyUnsigned, usesLegacyMapping } from './st0903-value-codecs.js';

interface PackField {
  readonly name: string;
  /** IMAPB(min, max, size) constants, computed once. */
  readonly mapping: ImapbMapping;
  readonly min: number;
  readonly max: number;
  readonly size: number;
}

function field(name: string, min: number, max: number, size: number): PackField {
  return { name, mapping: imapbCodec(min, max, size, size, size).mapping(size), min, max, size };
}

/** A number, or an ST 1201 special value object as decoding returns it. */
function isImapbValue(value: unknown): value is ImapbValue {
  return typeof value === 'number' || (typeof value === 'object' && value !== null && typeof (value as { special?: unknown }).special === 'string');
}

const SIGMA_FIELDS = [field('sigmaEast', 0, 650, 2), field('sigmaNorth', 0, 650, 2), field('sigmaUp', 0, 650, 2)];
const RHO_FIELDS = [field('rhoEastNorth', -1, 1, 2), field('rhoEastUp', -1, 1, 2), field('rhoNorthUp', -1, 1, 2)];
const LOCATION_FIELDS = [field('latitude', -90, 90, 4), field('longitude', -180, 180, 4), field('hae', -900, 19000, 2)];
const MOTION_FIELDS = [field('east', -900, 900, 2), field('north', -900, 900, 2), field('up', -900, 900, 2)];

/** A truncation pack: the mandatory group, then optional groups whole or not at all. */
function truncationPackCodec(groups: readonly (readonly PackField[])[]): TagCodec {
  const groupSizes = groups.map((group) => group.reduce((sum, f) => sum + f.size, 0));
  const allowed: number[] = [];
  let running = 0;
  for (const size of groupSizes) allowed.push((running += size));
  return {
    decode(bytes, start, end, context) {
      const length = end - start;
      const groupCount = allowed.indexOf(length) + 1;
      if (groupCount === 0) return badLength(`length ${length}, expected one of ${allowed.join(', ')}`);
      const legacy = usesLegacyMapping(context);
      const value: Record<string, unknown> = {};
      let pos = start;
      for (let g = 0; g < groupCount; g++) {
        for (const f of groups[g]) {
          const fieldEnd = pos + f.size;
          value[f.name] = legacy ? readLegacyUnsigned(bytes, pos, fieldEnd, f.min, f.max) : imapbReverse(f.mapping, bytes, pos);
          pos = fieldEnd;
        }
      }
      return decodeOk(value);
    },
    encode(value) {
      const record = (value ?? {}) as Record<string, unknown>;
      const parts: Uint8Array[] = [];
      for (let g = 0; g < groups.length; g++) {
        const present = groups[g].filter((f) => isImapbValue(record[f.name])).length;
        if (present === 0 && g > 0) break;
        if (present !== groups[g].length) {
          throw new KlvEncodeError(`pack needs all of ${groups[g].map((f) => f.name).join(', ')} or none of them`);
        }
        for (const f of groups[g]) parts.push(imapbForward(f.mapping, record[f.name] as ImapbValue));
      }
      return concatBytes(parts);
    },
  };
}

/** ST 0903.6 Location pack: `{ latitude, longitude, hae, sigmaEast?, ..., rhoNorthUp? }` in degrees and metres. */
export const locationPackCodec: TagCodec = truncationPackCodec([LOCATION_FIELDS, SIGMA_FIELDS, RHO_FIELDS]);

/** ST 0903.6 Velocity (m/s) and Acceleration (m/s^2) packs: `{ east, north, up, sigma...?, rho...? }`. */
export const motionPackCodec: TagCodec = truncationPackCodec([MOTION_FIELDS, SIGMA_FIELDS, RHO_FIELDS]);

/** ST 0903.6 VTarget tag 18 and VTracker tags 5 and 9: a Series of Location packs. */
export const locationSeriesCodec: TagCodec = seriesCodec(locationPackCodec, 'location');
