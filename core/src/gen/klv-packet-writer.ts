/**
 * Writes the generator's MISB ST 0601 packets: the items of a typical
 * platform-and-sensor packet, in one fixed order, with the checksum (item 1)
 * last (ST 0601.17 section 6.3).
 *
 * Every packet has the same items, each of a fixed length, so the layout is
 * encoded once with `encodeSt0601` and each packet only rewrites the values
 * that change and the checksum: no re-encoding of the whole item table per
 * packet (the benchmarks write tens of thousands of them). `items()` gives
 * the same packet as a list for `encodeSt0601`, which the fault kinds change
 * (add, repeat or leave out an item) before encoding it the slow way.
 */
import { st0601Checksum } from '../klv/checksum.js';
import { encodeSt0601 } from '../klv/st0601-packet.js';
import { st0601Item } from '../klv/st0601-items.js';
import type { FlightSample } from './klv-flight-path.js';

export interface St0601Item {
  tag: number;
  value: unknown;
}

/** The values that stay the same in every packet of a stream. */
export interface St0601FixedValues {
  /** Item 3. */
  missionId: string;
  /** Item 65. */
  version: number;
}

/** Item 10 (a plausible medium-altitude UAS) and items 11-12 (ST 0601 item 12 lists "Geodetic WGS84"). */
const PLATFORM_DESIGNATION = 'MQ-1C';
const IMAGE_SOURCE_SENSOR = 'EO';
const IMAGE_COORDINATE_SYSTEM = 'Geodetic WGS84';

const KEY_BYTES = 16;
const CHECKSUM_VALUE_BYTES = 2;

/** The tags whose value changes from packet to packet, with where they come from. */
const DYNAMIC: ReadonlyArray<readonly [number, (t: number, f: FlightSample) => number]> = [
  [2, (t) => t],
  [5, (_, f) => f.platformHeadingDeg],
  [6, (_, f) => f.platformPitchDeg],
  [7, (_, f) => f.platformRollDeg],
  [13, (_, f) => f.sensorLatitudeDeg],
  [14, (_, f) => f.sensorLongitudeDeg],
  [15, (_, f) => f.sensorAltitudeM],
  [16, (_, f) => f.horizontalFovDeg],
  [17, (_, f) => f.verticalFovDeg],
  [18, (_, f) => f.sensorRelativeAzimuthDeg],
  [19, (_, f) => f.sensorRelativeElevationDeg],
  [20, (_, f) => f.sensorRelativeRollDeg],
  [21, (_, f) => f.slantRangeM],
  [23, (_, f) => f.frameCenterLatitudeDeg],
  [24, (_, f) => f.frameCenterLongitudeDeg],
  [25, (_, f) => f.frameCenterElevationM],
];

/** Where each dynamic value sits in the template, and the codec that writes it. */
interface Slot {
  offset: number;
  encode: (value: unknown) => Uint8Array;
  valueOf: (t: number, f: FlightSample) => number;
}

export class St0601PacketWriter {
  private readonly template: Uint8Array;
  private readonly slots: Slot[];

  constructor(
    private readonly fixed: St0601FixedValues,
    /** Any flight sample: it only gives the template its shape. */
    shape: FlightSample,
  ) {
    this.template = encodeSt0601(this.items(0, shape));
    const offsets = valueOffsets(this.template);
    this.slots = DYNAMIC.map(([tag, valueOf]) => {
      const offset = offsets.get(tag);
      const spec = st0601Item(tag);
      if (offset === undefined || !spec) throw new Error(`ST 0601 tag ${tag} is missing from the template or the item table`);
      return { offset, encode: (v: unknown) => spec.codec.encode(v), valueOf };
    });
  }

  /** Bytes of a clean packet. */
  get packetBytes(): number {
    return this.template.length;
  }

  /**
   * The packet's items in order (no checksum: encodeSt0601 adds it):
   * 2 time stamp, 3 mission, 5-7 platform attitude, 10-12 platform, sensor
   * and coordinate system names, 13-21 sensor, 23-25 frame center, 65 version.
   */
  items(timestampMicros: number, f: FlightSample): St0601Item[] {
    return [
      { tag: 2, value: timestampMicros },
      { tag: 3, value: this.fixed.missionId },
      { tag: 5, value: f.platformHeadingDeg },
      { tag: 6, value: f.platformPitchDeg },
      { tag: 7, value: f.platformRollDeg },
      { tag: 10, value: PLATFORM_DESIGNATION },
      { tag: 11, value: IMAGE_SOURCE_SENSOR },
      { tag: 12, value: IMAGE_COORDINATE_SYSTEM },
      { tag: 13, value: f.sensorLatitudeDeg },
      { tag: 14, value: f.sensorLongitudeDeg },
      { tag: 15, value: f.sensorAltitudeM },
      { tag: 16, value: f.horizontalFovDeg },
      { tag: 17, value: f.verticalFovDeg },
      { tag: 18, value: f.sensorRelativeAzimuthDeg },
      { tag: 19, value: f.sensorRelativeElevationDeg },
      { tag: 20, value: f.sensorRelativeRollDeg },
      { tag: 21, value: f.slantRangeM },
      { tag: 23, value: f.frameCenterLatitudeDeg },
      { tag: 24, value: f.frameCenterLongitudeDeg },
      { tag: 25, value: f.frameCenterElevationM },
      { tag: 65, value: this.fixed.version },
    ];
  }

  /** A whole packet (a fresh array): byte for byte `encodeSt0601(this.items(timestampMicros, f))`. */
  write(timestampMicros: number, f: FlightSample): Uint8Array {
    const packet = this.template.slice();
    for (const slot of this.slots) packet.set(slot.encode(slot.valueOf(timestampMicros, f)), slot.offset);
    writeSt0601Checksum(packet);
    return packet;
  }
}

/** Sets item 1, the packet's last two bytes, to the sum of the bytes before them (ST 0601.17 6.3: key through item 1's tag and length). */
export function writeSt0601Checksum(packet: Uint8Array): void {
  const end = packet.length - CHECKSUM_VALUE_BYTES;
  const sum = st0601Checksum(packet, 0, end);
  packet[end] = sum >> 8;
  packet[end + 1] = sum & 0xff;
}

/**
 * Value positions of the items of a packet this writer encoded: every tag
 * is below 128 and every value shorter than 128 bytes, so tags and lengths
 * are one byte each (BER-OID, BER short form).
 */
function valueOffsets(packet: Uint8Array): Map<number, number> {
  const first = packet[KEY_BYTES];
  let p = KEY_BYTES + (first < 0x80 ? 1 : 1 + (first & 0x7f));
  const out = new Map<number, number>();
  while (p < packet.length) {
    out.set(packet[p], p + 2);
    p += 2 + packet[p + 1];
  }
  return out;
}
