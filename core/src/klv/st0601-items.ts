/**
 * The MISB ST 0601 UAS Datalink Local Set item table, items 1 to 143, as of
 * ST 0601.19. Items 1-141 follow ST 0601.17 (cross-checked with jmisb and
 * KWIVER); 142 View Domain and 143 Metadata Substream ID Pack are the newest
 * items and follow KWIVER's reading of ST 0601.18/.19. For each item:
 * name and units (ST 0601 section 8 item descriptions), the value codec
 * (which carries value type, length rule, range and resolution), whether it
 * is deprecated, whether it may appear more than once in one packet, and
 * whether every packet must carry it.
 *
 * Mandatory items (ST 0601.17 section 6.2, Table 1 "M"): 1 Checksum,
 * 2 Precision Time Stamp, 65 UAS Datalink LS Version Number. Every other
 * item is report-on-change, so its absence is not an error.
 * Repeatable items: 100 and 101 (one ST 1607 Segment/Amend set each),
 * 102 (one SDCC-FLP per covariance block) and 115 (one per command).
 */
import { berOidListCodec } from './ber-oid-list-codec.js';
import { bitFlagsCodec } from './bit-flags-codec.js';
import { enumerationCodec } from './enumeration-codec.js';
import { imapbCodec } from './imapb-codec.js';
import { fixedIntegerCodec, variableIntegerCodec } from './integer-codec.js';
import { stringCodec } from './klv-string.js';
import { signedMapCodec, unsignedMapCodec } from './mapped-integer.js';
import { miisCoreIdentifierCodec } from './miis-core-identifier.js';
import { nestedLocalSetCodec } from './nested-local-set-codec.js';
import { opaqueBytesCodec } from './opaque-bytes-codec.js';
import { st0102NestedSet } from './st0102-security-set.js';
import { st0601ActivePayloadsCodec } from './st0601-active-payloads.js';
import { st0601AirbaseLocationsCodec } from './st0601-airbase-locations.js';
import { st0601ControlCommandCodec } from './st0601-control-command.js';
import { st0601CountryCodesCodec } from './st0601-country-codes.js';
import { st0601FrameRatePackCodec } from './st0601-frame-rate-pack.js';
import { st0601ImageHorizonPackCodec } from './st0601-image-horizon-pack.js';
import { st0601MetadataSubstreamIdCodec } from './st0601-metadata-substream-id.js';
import { st0601PayloadListCodec } from './st0601-payload-list.js';
import { st0601ViewDomainCodec } from './st0601-view-domain.js';
import { st0601WavelengthsListCodec } from './st0601-wavelengths-list.js';
import { st0601WaypointListCodec } from './st0601-waypoint-list.js';
import { st0601WeaponFiredCodec, st0601WeaponLoadCodec } from './st0601-weapon-load.js';
import { st0601WeaponsStoresCodec } from './st0601-weapons-stores.js';
import { st0903NestedSet } from './st0903-vmti-set.js';
import type { LengthRule, ValueCodec } from './value-codec.js';

export interface St0601ItemSpec {
  readonly tag: number;
  readonly name: string;
  readonly units: string | null;
  /** The standard's value type: 'uint16', 'int32', 'IMAPB', 'utf8', 'local set (MISB ST 0102)', 'DLP', ... */
  readonly valueType: string;
  readonly length: LengthRule;
  /** Range of the decoded value, for numeric items. */
  readonly range: { readonly min: number; readonly max: number } | null;
  /** Value step of one integer unit, for numeric items (IMAPB: at the length an encoder writes). */
  readonly resolution: number | null;
  readonly deprecated: boolean;
  readonly mayRepeat: boolean;
  readonly mandatory: boolean;
  /** Decoder and encoder of the value bytes. */
  readonly codec: ValueCodec;
}

interface ItemOptions {
  readonly deprecated?: boolean;
  readonly mayRepeat?: boolean;
  readonly mandatory?: boolean;
}

function item(tag: number, name: string, units: string | null, codec: ValueCodec, options: ItemOptions = {}): St0601ItemSpec {
  return {
    tag,
    name,
    units,
    valueType: codec.valueType,
    length: codec.length,
    range: codec.range,
    resolution: codec.resolution,
    deprecated: options.deprecated ?? false,
    mayRepeat: options.mayRepeat ?? false,
    mandatory: options.mandatory ?? false,
    codec,
  };
}

// Codecs shared by several items (ST 0601 section 8 formulas).
const ANGLE_360_U16 = unsignedMapCodec(2, 0, 360);
const ANGLE_360_U32 = unsignedMapCodec(4, 0, 360);
const LATITUDE = signedMapCodec(4, 90);
const LONGITUDE = signedMapCodec(4, 180);
const ALTITUDE = unsignedMapCodec(2, -900, 19000);
const CORNER_OFFSET = signedMapCodec(2, 0.075);
const PRESSURE = unsignedMapCodec(2, 0, 5000);
// ST 0601 strings: up to 127 bytes; producers send zero-length strings for "not set" (seen in the field).
const TEXT = stringCodec(0, 127);
const UINT8 = fixedIntegerCodec(1, false);
const TIME_US = fixedIntegerCodec(8, false);
const HEIGHT_EXTENDED = imapbCodec(-900, 40000, 1, 8, 3);
const SENSOR_RATE = imapbCodec(-1000, 1000, 1, 4, 3);

export const ICING_DETECTED = ['Detector Off', 'No Icing Detected', 'Icing Detected'] as const;
export const SENSOR_FOV_NAMES = ['Ultranarrow', 'Narrow', 'Medium', 'Wide', 'Ultrawide', 'Narrow Medium', '2x Ultranarrow', '4x Ultranarrow', 'Continuous Zoom'] as const;
export const OPERATIONAL_MODES = ['Other', 'Operational', 'Training', 'Exercise', 'Maintenance', 'Test'] as const;
export const PLATFORM_STATUSES = [
  'Active',
  'Pre-flight',
  'Pre-flight-Taxiing',
  'Run-up',
  'Take-off',
  'Ingress',
  'Manual Operation',
  'Automated-orbit',
  'Transitioning',
  'Egress',
  'Landing',
  'Landed-Taxiing',
  'Landed-Parked',
] as const;
export const SENSOR_CONTROL_MODES = ['Off', 'Home Position', 'Uncontrolled', 'Manual Control', 'Calibrating', 'Auto - Holding Position', 'Auto - Tracking'] as const;
/** ST 0601 item 47 bits, least significant first. */
export const GENERIC_FLAG_BITS = ['laserRangeOn', 'autoTrackOn', 'irPolarityWhiteHot', 'icingDetected', 'slantRangeMeasured', 'imageInvalid'] as const;
/** ST 0601 item 124 bits, least significant first. */
export const POSITIONING_SOURCE_BITS = ['onBoardIns', 'gps', 'galileo', 'qzss', 'navic', 'glonass', 'beidou1', 'beidou2'] as const;

const ITEMS: St0601ItemSpec[] = [
  item(1, 'Checksum', null, fixedIntegerCodec(2, false), { mandatory: true }),
  item(2, 'Precision Time Stamp', 'µs', TIME_US, { mandatory: true }),
  item(3, 'Mission ID', null, TEXT),
  item(4, 'Platform Tail Number', null, TEXT),
  item(5, 'Platform Heading Angle', '°', ANGLE_360_U16),
  item(6, 'Platform Pitch Angle', '°', signedMapCodec(2, 20)),
  item(7, 'Platform Roll Angle', '°', signedMapCodec(2, 50)),
  item(8, 'Platform True Airspeed', 'm/s', UINT8),
  item(9, 'Platform Indicated Airspeed', 'm/s', UINT8),
  item(10, 'Platform Designation', null, TEXT),
  item(11, 'Image Source Sensor', null, TEXT),
  item(12, 'Image Coordinate System', null, TEXT),
  item(13, 'Sensor Latitude', '°', LATITUDE),
  item(14, 'Sensor Longitude', '°', LONGITUDE),
  item(15, 'Sensor True Altitude', 'm', ALTITUDE),
  item(16, 'Sensor Horizontal Field of View', '°', unsignedMapCodec(2, 0, 180)),
  item(17, 'Sensor Vertical Field of View', '°', unsignedMapCodec(2, 0, 180)),
  item(18, 'Sensor Relative Azimuth Angle', '°', ANGLE_360_U32),
  item(19, 'Sensor Relative Elevation Angle', '°', signedMapCodec(4, 180)),
  item(20, 'Sensor Relative Roll Angle', '°', ANGLE_360_U32),
  item(21, 'Slant Range', 'm', unsignedMapCodec(4, 0, 5_000_000)),
  item(22, 'Target Width', 'm', unsignedMapCodec(2, 0, 10_000)),
  item(23, 'Frame Center Latitude', '°', LATITUDE),
  item(24, 'Frame Center Longitude', '°', LONGITUDE),
  item(25, 'Frame Center Elevation', 'm', ALTITUDE),
  item(26, 'Offset Corner Latitude Point 1', '°', CORNER_OFFSET),
  item(27, 'Offset Corner Longitude Point 1', '°', CORNER_OFFSET),
  item(28, 'Offset Corner Latitude Point 2', '°', CORNER_OFFSET),
  item(29, 'Offset Corner Longitude Point 2', '°', CORNER_OFFSET),
  item(30, 'Offset Corner Latitude Point 3', '°', CORNER_OFFSET),
  item(31, 'Offset Corner Longitude Point 3', '°', CORNER_OFFSET),
  item(32, 'Offset Corner Latitude Point 4', '°', CORNER_OFFSET),
  item(33, 'Offset Corner Longitude Point 4', '°', CORNER_OFFSET),
  item(34, 'Icing Detected', null, enumerationCodec(ICING_DETECTED)),
  item(35, 'Wind Direction', '°', ANGLE_360_U16),
  item(36, 'Wind Speed', 'm/s', unsignedMapCodec(1, 0, 100)),
  item(37, 'Static Pressure', 'mbar', PRESSURE),
  item(38, 'Density Altitude', 'm', ALTITUDE),
  item(39, 'Outside Air Temperature', '°C', fixedIntegerCodec(1, true)),
  item(40, 'Target Location Latitude', '°', LATITUDE),
  item(41, 'Target Location Longitude', '°', LONGITUDE),
  item(42, 'Target Location Elevation', 'm', ALTITUDE),
  item(43, 'Target Track Gate Width', 'px', unsignedMapCodec(1, 0, 510)),
  item(44, 'Target Track Gate Height', 'px', unsignedMapCodec(1, 0, 510)),
  item(45, 'Target Error Estimate - CE90', 'm', unsignedMapCodec(2, 0, 4095)),
  item(46, 'Target Error Estimate - LE90', 'm', unsignedMapCodec(2, 0, 4095)),
  item(47, 'Generic Flag Data', null, bitFlagsCodec(GENERIC_FLAG_BITS)),
  item(48, 'Security Local Set', null, nestedLocalSetCodec('MISB ST 0102', st0102NestedSet)),
  item(49, 'Differential Pressure', 'mbar', PRESSURE),
  item(50, 'Platform Angle of Attack', '°', signedMapCodec(2, 20)),
  item(51, 'Platform Vertical Speed', 'm/s', signedMapCodec(2, 180)),
  item(52, 'Platform Sideslip Angle', '°', signedMapCodec(2, 20)),
  item(53, 'Airfield Barometric Pressure', 'mbar', PRESSURE),
  item(54, 'Airfield Elevation', 'm', ALTITUDE),
  item(55, 'Relative Humidity', '%', unsignedMapCodec(1, 0, 100)),
  item(56, 'Platform Ground Speed', 'm/s', UINT8),
  item(57, 'Ground Range', 'm', unsignedMapCodec(4, 0, 5_000_000)),
  item(58, 'Platform Fuel Remaining', 'kg', unsignedMapCodec(2, 0, 10_000)),
  item(59, 'Platform Call Sign', null, TEXT),
  item(60, 'Weapon Load', null, st0601WeaponLoadCodec),
  item(61, 'Weapon Fired', null, st0601WeaponFiredCodec),
  item(62, 'Laser PRF Code', null, fixedIntegerCodec(2, false)),
  item(63, 'Sensor Field of View Name', null, enumerationCodec(SENSOR_FOV_NAMES)),
  item(64, 'Platform Magnetic Heading', '°', ANGLE_360_U16),
  item(65, 'UAS Datalink LS Version Number', null, UINT8, { mandatory: true }),
  item(66, 'Target Location Covariance Matrix', null, opaqueBytesCodec('deprecated'), { deprecated: true }),
  item(67, 'Alternate Platform Latitude', '°', LATITUDE),
  item(68, 'Alternate Platform Longitude', '°', LONGITUDE),
  item(69, 'Alternate Platform Altitude', 'm', ALTITUDE),
  item(70, 'Alternate Platform Name', null, TEXT),
  item(71, 'Alternate Platform Heading', '°', ANGLE_360_U16),
  item(72, 'Event Start Time - UTC', 'µs', TIME_US),
  item(73, 'RVT Local Set', null, nestedLocalSetCodec('MISB ST 0806')),
  item(74, 'VMTI Local Set', null, nestedLocalSetCodec('MISB ST 0903', st0903NestedSet)),
  item(75, 'Sensor Ellipsoid Height', 'm', ALTITUDE),
  item(76, 'Alternate Platform Ellipsoid Height', 'm', ALTITUDE),
  item(77, 'Operational Mode', null, enumerationCodec(OPERATIONAL_MODES)),
  item(78, 'Frame Center Height Above Ellipsoid', 'm', ALTITUDE),
  item(79, 'Sensor North Velocity', 'm/s', signedMapCodec(2, 327)),
  item(80, 'Sensor East Velocity', 'm/s', signedMapCodec(2, 327)),
  item(81, 'Image Horizon Pixel Pack', null, st0601ImageHorizonPackCodec),
  item(82, 'Corner Latitude Point 1 (Full)', '°', LATITUDE),
  item(83, 'Corner Longitude Point 1 (Full)', '°', LONGITUDE),
  item(84, 'Corner Latitude Point 2 (Full)', '°', LATITUDE),
  item(85, 'Corner Longitude Point 2 (Full)', '°', LONGITUDE),
  item(86, 'Corner Latitude Point 3 (Full)', '°', LATITUDE),
  item(87, 'Corner Longitude Point 3 (Full)', '°', LONGITUDE),
  item(88, 'Corner Latitude Point 4 (Full)', '°', LATITUDE),
  item(89, 'Corner Longitude Point 4 (Full)', '°', LONGITUDE),
  item(90, 'Platform Pitch Angle (Full)', '°', signedMapCodec(4, 90)),
  item(91, 'Platform Roll Angle (Full)', '°', signedMapCodec(4, 90)),
  item(92, 'Platform Angle of Attack (Full)', '°', signedMapCodec(4, 90)),
  item(93, 'Platform Sideslip Angle (Full)', '°', signedMapCodec(4, 180)),
  item(94, 'MIIS Core Identifier', null, miisCoreIdentifierCodec),
  item(95, 'SAR Motion Imagery Local Set', null, nestedLocalSetCodec('MISB ST 1206')),
  item(96, 'Target Width Extended', 'm', imapbCodec(0, 1_500_000, 1, 8, 3)),
  item(97, 'Range Image Local Set', null, nestedLocalSetCodec('MISB ST 1002')),
  item(98, 'Geo-Registration Local Set', null, nestedLocalSetCodec('MISB ST 1601')),
  item(99, 'Composite Imaging Local Set', null, nestedLocalSetCodec('MISB ST 1602')),
  item(100, 'Segment Local Set', null, nestedLocalSetCodec('MISB ST 1607'), { mayRepeat: true }),
  item(101, 'Amend Local Set', null, nestedLocalSetCodec('MISB ST 1607'), { mayRepeat: true }),
  item(102, 'SDCC-FLP', null, opaqueBytesCodec('FLP (MISB ST 1010)'), { mayRepeat: true }),
  item(103, 'Density Altitude Extended', 'm', HEIGHT_EXTENDED),
  item(104, 'Sensor Ellipsoid Height Extended', 'm', HEIGHT_EXTENDED),
  item(105, 'Alternate Platform Ellipsoid Height Extended', 'm', HEIGHT_EXTENDED),
  item(106, 'Stream Designator', null, TEXT),
  item(107, 'Operational Base', null, TEXT),
  item(108, 'Broadcast Source', null, TEXT),
  item(109, 'Range To Recovery Location', 'km', imapbCodec(0, 21_000, 1, 4, 3)),
  item(110, 'Time Airborne', 's', variableIntegerCodec(4, false)),
  item(111, 'Propulsion Unit Speed', 'RPM', variableIntegerCodec(4, false)),
  item(112, 'Platform Course Angle', '°', imapbCodec(0, 360, 1, 8, 2)),
  item(113, 'Altitude Above Ground Level (AGL)', 'm', imapbCodec(-900, 40_000, 1, 4, 3)),
  item(114, 'Radar Altimeter', 'm', imapbCodec(-900, 40_000, 1, 4, 3)),
  item(115, 'Control Command', null, st0601ControlCommandCodec, { mayRepeat: true }),
  item(116, 'Control Command Verification List', null, berOidListCodec('control command verification list')),
  item(117, 'Sensor Azimuth Rate', '°/s', SENSOR_RATE),
  item(118, 'Sensor Elevation Rate', '°/s', SENSOR_RATE),
  item(119, 'Sensor Roll Rate', '°/s', SENSOR_RATE),
  item(120, 'On-board MI Storage Percent Full', '%', imapbCodec(0, 100, 1, 3, 2)),
  item(121, 'Active Wavelength List', null, berOidListCodec('active wavelength list')),
  item(122, 'Country Codes', null, st0601CountryCodesCodec),
  item(123, 'Number of NAVSATs in View', null, UINT8),
  item(124, 'Positioning Method Source', null, bitFlagsCodec(POSITIONING_SOURCE_BITS)),
  item(125, 'Platform Status', null, enumerationCodec(PLATFORM_STATUSES)),
  item(126, 'Sensor Control Mode', null, enumerationCodec(SENSOR_CONTROL_MODES)),
  item(127, 'Sensor Frame Rate Pack', null, st0601FrameRatePackCodec),
  item(128, 'Wavelengths List', null, st0601WavelengthsListCodec),
  item(129, 'Target ID', null, stringCodec(0, 32)),
  item(130, 'Airbase Locations', null, st0601AirbaseLocationsCodec),
  item(131, 'Take-off Time', 'µs', variableIntegerCodec(8, false)),
  item(132, 'Transmission Frequency', 'MHz', imapbCodec(1, 99_999, 1, 4, 3)),
  item(133, 'On-board MI Storage Capacity', 'GB', variableIntegerCodec(4, false)),
  item(134, 'Zoom Percentage', '%', imapbCodec(0, 100, 1, 4, 1)),
  item(135, 'Communications Method', null, TEXT),
  item(136, 'Leap Seconds', 's', variableIntegerCodec(4, true)),
  item(137, 'Correction Offset', 'µs', variableIntegerCodec(8, true)),
  item(138, 'Payload List', null, st0601PayloadListCodec),
  item(139, 'Active Payloads', null, st0601ActivePayloadsCodec),
  item(140, 'Weapons Stores', null, st0601WeaponsStoresCodec),
  item(141, 'Waypoint List', null, st0601WaypointListCodec),
  item(142, 'View Domain', null, st0601ViewDomainCodec),
  item(143, 'Metadata Substream ID Pack', null, st0601MetadataSubstreamIdCodec),
];

/** Highest item number the table defines. */
export const ST0601_MAX_TAG = 143;

/** Item specs indexed by tag (index 0 unused). */
const BY_TAG: (St0601ItemSpec | undefined)[] = [];
for (const spec of ITEMS) BY_TAG[spec.tag] = spec;

/** Every item, in tag order. */
export const ST0601_ITEMS: readonly St0601ItemSpec[] = ITEMS;

/** The spec of `tag`, or undefined for tags ST 0601 does not define. */
export function st0601Item(tag: number): St0601ItemSpec | undefined {
  return tag >= 0 && tag <= ST0601_MAX_TAG ? BY_TAG[tag] : undefined;
}

/** Tags every packet must carry (ST 0601.17 Table 1). */
export const ST0601_MANDATORY_TAGS: readonly number[] = ITEMS.filter((s) => s.mandatory).map((s) => s.tag);
