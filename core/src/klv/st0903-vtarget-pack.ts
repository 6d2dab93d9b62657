/**
 * MISB ST 0903.6 VTarget Pack (VMTI LS tag 101, a Series of them): a
 * BER-OID target ID followed by a local set describing one detected
 * target. Pixel positions are pixel numbers, (row - 1) * frame width +
 * column with rows and columns counted from 1; geographic offsets are from
 * the ST 0601 frame centre.
 */
import { encodeBerOid, readBerOid } from './ber-oid.js';
import type { DecodedItem } from './decoded-item.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { locationPackCodec, locationSeriesCodec } from './st0903-location-pack.js';
import { seriesCodec } from './st0903-series.js';
import {
  badLength,
  decodeOk,
  decodeTaggedSet,
  encodeTaggedSet,
  type TagCodec,
  type TaggedItemInput,
  type TagTable,
} from './st0903-tagged-set.js';
import { vchipSetCodec } from './st0903-vchip-set.js';
import { vfeatureSetCodec } from './st0903-vfeature-set.js';
import { vmaskSetCodec } from './st0903-vmask-set.js';
import { vobjectSetCodec } from './st0903-vobject-set.js';
import { vtrackerSetCodec } from './st0903-vtracker-set.js';
import { fpaIndexCodec, realCodec, rgbCodec, type St0903LegacyMapping, uintCodec } from './st0903-value-codecs.js';

/** ST 0903.3 wrote offsets as 1 to 3 byte signed integers scaled to +-19.2 degrees. */
const LEGACY_OFFSET: St0903LegacyMapping = { kind: 'signed-offset', minLength: 1, maxLength: 3 };
/** ST 0903.3 wrote the height as a 1 or 2 byte unsigned integer mapped onto -900..19000 m. */
const LEGACY_HEIGHT: St0903LegacyMapping = { kind: 'unsigned', minLength: 1, maxLength: 2 };

/** Offsets from the frame centre: IMAPB(-19.2, 19.2, 3) degrees since ST 0903.4. */
const offsetCodec = realCodec(-19.2, 19.2, 3, LEGACY_OFFSET);

export const ST0903_VTARGET_TAGS: TagTable = new Map([
  [1, { name: 'Target Centroid', units: 'pixel number', codec: uintCodec(6) }],
  [2, { name: 'Boundary Top Left', units: 'pixel number', codec: uintCodec(6) }],
  [3, { name: 'Boundary Bottom Right', units: 'pixel number', codec: uintCodec(6) }],
  [4, { name: 'Target Priority', units: null, codec: uintCodec(1) }],
  [5, { name: 'Target Confidence Level', units: '%', codec: uintCodec(1) }],
  [6, { name: 'Target History', units: 'detections', codec: uintCodec(2) }],
  [7, { name: 'Percentage of Target Pixels', units: '%', codec: uintCodec(1) }],
  [8, { name: 'Target Color', units: 'RGB', codec: rgbCodec }],
  [9, { name: 'Target Intensity', units: null, codec: uintCodec(3) }],
  [10, { name: 'Target Location Offset Latitude', units: 'degrees', codec: offsetCodec }],
  [11, { name: 'Target Location Offset Longitude', units: 'degrees', codec: offsetCodec }],
  [12, { name: 'Target Height', units: 'metres HAE', codec: realCodec(-900, 19000, 2, LEGACY_HEIGHT) }],
  [13, { name: 'Boundary Top Left Latitude Offset', units: 'degrees', codec: offsetCodec }],
  [14, { name: 'Boundary Top Left Longitude Offset', units: 'degrees', codec: offsetCodec }],
  [15, { name: 'Boundary Bottom Right Latitude Offset', units: 'degrees', codec: offsetCodec }],
  [16, { name: 'Boundary Bottom Right Longitude Offset', units: 'degrees', codec: offsetCodec }],
  [17, { name: 'Target Location', units: 'degrees, metres HAE', codec: locationPackCodec }],
  [18, { name: 'Target Boundary Series', units: 'degrees, metres HAE', codec: locationSeriesCodec }],
  [19, { name: 'Centroid Pixel Row', units: 'pixels', codec: uintCodec(4) }],
  [20, { name: 'Centroid Pixel Column', units: 'pixels', codec: uintCodec(4) }],
  [21, { name: 'FPA Index', units: null, codec: fpaIndexCodec }],
  [22, { name: 'Algorithm ID', units: null, codec: uintCodec(3) }],
  [101, { name: 'VMask', units: null, codec: vmaskSetCodec }],
  [102, { name: 'VObject', units: null, codec: vobjectSetCodec }],
  [103, { name: 'VFeature', units: null, codec: vfeatureSetCodec }],
  [104, { name: 'VTracker', units: null, codec: vtrackerSetCodec }],
  [105, { name: 'VChip', units: null, codec: vchipSetCodec }],
  [106, { name: 'VChip Series', units: null, codec: seriesCodec(vchipSetCodec, 'VChip') }],
  [107, { name: 'VObject Series', units: null, codec: seriesCodec(vobjectSetCodec, 'VObject') }],
]);

/** A decoded VTarget pack. */
export interface St0903VTarget {
  /** The target ID, unique within the frame (and, with VTracker, across frames). */
  readonly targetId: number;
  readonly items: DecodedItem[];
}

/** What {@link vtargetPackCodec} encodes: a target ID and its items (decoded items work as they are). */
export interface St0903VTargetInput {
  readonly targetId: number;
  readonly items: readonly TaggedItemInput[];
}

/** One VTarget pack: BER-OID target ID, then the VTarget local set. Decodes to {@link St0903VTarget}. */
export const vtargetPackCodec: TagCodec = {
  decode(bytes, start, end, context) {
    const id = readBerOid(bytes, start, end);
    if (!id.ok) return badLength(`target ID: ${id.message}`);
    const path = `${context.path === '' ? '' : `${context.path} / `}VTarget ${id.value}`;
    const items = decodeTaggedSet(bytes, start + id.size, end, ST0903_VTARGET_TAGS, {
      version: context.version,
      problems: context.problems,
      path,
    });
    const target: St0903VTarget = { targetId: id.value, items };
    return decodeOk(target);
  },
  encode(value) {
    const { targetId, items } = (value ?? {}) as Partial<St0903VTargetInput>;
    if (typeof targetId !== 'number' || !Array.isArray(items)) throw new KlvEncodeError('a VTarget needs a numeric targetId and an items array');
    return concatBytes([encodeBerOid(targetId), encodeTaggedSet(items, ST0903_VTARGET_TAGS)]);
  },
};

/** VMTI LS tag 101: the Series of VTarget packs, decoded to an array of {@link St0903VTarget}. */
export const vtargetSeriesCodec: TagCodec = seriesCodec(vtargetPackCodec, 'VTarget pack');
