/**
 * The items of the legacy MISB EG 0104 "Predator UAV Basic Universal
 * Metadata Set" (EG 0104.5, withdrawn in favour of ST 0601): each keyed by a
 * 16-byte SMPTE RP 210 universal label, carrying IEEE 754 big-endian floats
 * (4 or 8 bytes), an unsigned 64-bit UNIX time in microseconds, ISO 646 text
 * or a nested ST 0102 security local set. ST 0601 (up to ST 0601.12, whose
 * tables still list the EG 0104 labels) maps most of them to a local-set tag;
 * that tag is given as `st0601Tag` so both standards line up.
 */

export type Eg0104ValueKind = 'unix-time-us' | 'float' | 'text' | 'st0102-security-ls';

export interface Eg0104ItemSpec {
  /** The universal label as EG 0104.5 lists it, lower-case hex. */
  readonly keyHex: string;
  readonly name: string;
  readonly units: string | null;
  readonly kind: Eg0104ValueKind;
  /** The ST 0601 local-set tag with the same meaning, or 0 when ST 0601 has none. */
  readonly st0601Tag: number;
}

function item(keyHex: string, name: string, units: string | null, kind: Eg0104ValueKind, st0601Tag: number): Eg0104ItemSpec {
  return { keyHex, name, units, kind, st0601Tag };
}

/** The EG 0104.5 items. */
export const EG0104_ITEMS: readonly Eg0104ItemSpec[] = [
  item('060e2b34010101010702010101050000', 'User Defined Time Stamp', 'microseconds since 1970-01-01T00:00Z', 'unix-time-us', 2),
  item('060e2b34010101010105050000000000', 'Episode Number', null, 'text', 3),
  item('060e2b34010101010101200100000000', 'Device Designation', null, 'text', 10),
  item('060e2b34010101010420010201010000', 'Image Source Device', null, 'text', 11),
  item('060e2b34010101010701010100000000', 'Image Coordinate System', null, 'text', 12),
  item('060e2b34010101030701020102040200', 'Device Latitude', 'degrees', 'float', 13),
  item('060e2b34010101030701020102060200', 'Device Longitude', 'degrees', 'float', 14),
  item('060e2b34010101010701020102020000', 'Device Altitude', 'metres MSL', 'float', 15),
  item('060e2b34010101020420020101080000', 'Field of View (Horizontal)', 'degrees', 'float', 16),
  item('060e2b340101010704200201010a0100', 'Vertical Field of View', 'degrees', 'float', 17),
  item('060e2b34010101010701080101000000', 'Slant Range', 'metres', 'float', 21),
  item('060e2b34010101010701090201000000', 'Target Width', 'metres', 'float', 22),
  item('060e2b34010101010701020103020000', 'Frame Center Latitude', 'degrees', 'float', 23),
  item('060e2b34010101010701020103040000', 'Frame Center Longitude', 'degrees', 'float', 24),
  item('060e2b340101010a0701020103160000', 'Frame Center Elevation', 'metres MSL', 'float', 25),
  item('060e2b34010101030701020103070100', 'Corner Latitude Point 1', 'degrees', 'float', 82),
  item('060e2b340101010307010201030b0100', 'Corner Longitude Point 1', 'degrees', 'float', 83),
  item('060e2b34010101030701020103080100', 'Corner Latitude Point 2', 'degrees', 'float', 84),
  item('060e2b340101010307010201030c0100', 'Corner Longitude Point 2', 'degrees', 'float', 85),
  item('060e2b34010101030701020103090100', 'Corner Latitude Point 3', 'degrees', 'float', 86),
  item('060e2b340101010307010201030d0100', 'Corner Longitude Point 3', 'degrees', 'float', 87),
  item('060e2b340101010307010201030a0100', 'Corner Latitude Point 4', 'degrees', 'float', 88),
  item('060e2b340101010307010201030e0100', 'Corner Longitude Point 4', 'degrees', 'float', 89),
  item('060e2b34010101070701100106000000', 'Platform Heading Angle', 'degrees', 'float', 5),
  item('060e2b34010101070701100105000000', 'Platform Pitch Angle', 'degrees', 'float', 6),
  item('060e2b34010101070701100104000000', 'Platform Roll Angle', 'degrees', 'float', 7),
  item('060e2b34010101010701100101000000', 'Sensor Roll Angle', 'degrees', 'float', 0),
  item('060e2b34010101010701100102000000', 'Angle to North', 'degrees', 'float', 0),
  item('060e2b34010101010701100103000000', 'Obliquity Angle', 'degrees', 'float', 0),
  item('060e2b34010101010702010201010000', 'Start Date Time - UTC', 'YYYYMMDDThhmmss', 'text', 0),
  item('060e2b34010101010702010207010000', 'Event Start Date Time - UTC', 'YYYYMMDDThhmmss', 'text', 72),
  item('060e2b34020301010e01030302000000', 'Security Local Metadata Set', null, 'st0102-security-ls', 48),
];

/** SMPTE ST 298 5.2: byte 7 of a label is the registry version, ignored when labels are compared. */
const VERSION_BYTE_HEX = 14;

/** The lookup form of a key: its hex with the version byte zeroed. */
export function eg0104KeyId(keyHex: string): string {
  return keyHex.slice(0, VERSION_BYTE_HEX) + '00' + keyHex.slice(VERSION_BYTE_HEX + 2);
}

const BY_KEY_ID: ReadonlyMap<string, Eg0104ItemSpec> = new Map(EG0104_ITEMS.map((spec) => [eg0104KeyId(spec.keyHex), spec]));

/** The EG 0104 item whose label equals `keyHex` (lower-case hex), version byte ignored; undefined when unknown. */
export function lookupEg0104Item(keyHex: string): Eg0104ItemSpec | undefined {
  return BY_KEY_ID.get(eg0104KeyId(keyHex));
}
