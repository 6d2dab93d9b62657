/**
 * The public entry of the KLV folder: SMPTE ST 336 framing (keys, BER
 * lengths, BER-OID tags, local and universal sets, triplets), MISB ST 1201
 * IMAPB, the MISB ST 0601 UAS Datalink LS (item table, item and packet
 * codecs, checksum), and the ST 0102, ST 0903 and EG 0104 decoders.
 */

// Framing errors and shared result shapes.
export { klvError, type KlvDecodeError } from './klv-error.js';
export { KlvEncodeError } from './klv-encode-error.js';
export type { DecodedItem, KlvProblem, KlvProblemType } from './decoded-item.js';
export { bytesToHex, hexToBytes } from './hex.js';

// SMPTE ST 336 framing.
export { readBerLength, encodeBerLength, MAX_BER_LENGTH_FIELD_BYTES, type BerLength } from './ber-length.js';
export { readBerOid, encodeBerOid, type BerOid } from './ber-oid.js';
export { parseLocalSet, type LocalSetItem, type ParsedLocalSet } from './local-set.js';
export { parseUniversalSet, UNIVERSAL_KEY_SIZE, type ParsedUniversalSet, type UniversalSetItem } from './universal-set.js';
export {
  UNIVERSAL_KEYS,
  UL_PREFIX,
  UL_VERSION_BYTE_INDEX,
  isSt0601Key,
  keyToHex,
  lookupUniversalKey,
  universalKey,
  type UniversalKeyEntry,
  type UniversalKeyMatch,
  type UniversalKeyName,
} from './universal-key.js';
export { findNextKeyStart, hasUlPrefixAt, readKlvTriplet, scanKlvStream, type KlvStreamScan, type KlvTriplet } from './klv-triplet.js';

// MISB ST 1201 IMAPB.
export {
  IMAPB_MAX_LENGTH,
  createImapbMapping,
  imapbForward,
  imapbResolution,
  imapbReverse,
  imapbSpecialBytes,
  type ImapbMapping,
  type ImapbSpecial,
  type ImapbSpecialKind,
  type ImapbValue,
} from './imapb.js';

// MISB ST 0601.
export { st0601Checksum, verifySt0601Checksum, type ChecksumVerification } from './checksum.js';
export {
  ST0601_ITEMS,
  ST0601_MANDATORY_TAGS,
  ST0601_MAX_TAG,
  st0601Item,
  GENERIC_FLAG_BITS,
  ICING_DETECTED,
  OPERATIONAL_MODES,
  PLATFORM_STATUSES,
  POSITIONING_SOURCE_BITS,
  SENSOR_CONTROL_MODES,
  SENSOR_FOV_NAMES,
  type St0601ItemSpec,
} from './st0601-items.js';
export { decodeSt0601Item, decodeSt0601ItemInto, encodeSt0601Item } from './st0601-item.js';
export { decodeSt0601, encodeSt0601, type St0601Checksum, type St0601Packet } from './st0601-packet.js';
export { OUT_OF_RANGE, type OutOfRangeIndicator } from './mapped-integer.js';
export { describeLengthRule, lengthAllowed, ValueDecodeFailure, type LengthRule, type ValueCodec } from './value-codec.js';
export type { EnumeratedValue } from './enumeration-codec.js';
export type { BitFlags } from './bit-flags-codec.js';
export type { OpaqueBytes } from './opaque-bytes-codec.js';
export type { FramedNestedItem, FramedNestedSet, NestedSetDelegate } from './nested-local-set-codec.js';
export type { MiisCoreIdentifier } from './miis-core-identifier.js';
export type { St0601ImageHorizon } from './st0601-image-horizon-pack.js';
export type { St0601ControlCommand } from './st0601-control-command.js';
export type { St0601CountryCodes } from './st0601-country-codes.js';
export type { St0601FrameRate } from './st0601-frame-rate-pack.js';
export type { St0601Location } from './st0601-location-pack.js';
export type { St0601AirbaseLocations } from './st0601-airbase-locations.js';
export type { St0601Wavelength } from './st0601-wavelengths-list.js';
export type { St0601Payload, St0601PayloadList } from './st0601-payload-list.js';
export type { St0601ActivePayloads } from './st0601-active-payloads.js';
export type { St0601WeaponStore } from './st0601-weapons-stores.js';
export type { St0601Waypoint } from './st0601-waypoint-list.js';
export type { St0601ViewDomain, St0601ViewInterval } from './st0601-view-domain.js';
export type { St0601WeaponFired, St0601WeaponLoad } from './st0601-weapon-load.js';
export type { St0601MetadataSubstreamId } from './st0601-metadata-substream-id.js';

// MISB ST 0102, ST 0903 and EG 0104 (written by A2).
export {
  ST0102_VERSION_TAG,
  decodeSt0102LocalSet,
  decodeSt0102Packet,
  encodeSt0102LocalSet,
  encodeSt0102Packet,
  type St0102LocalSet,
  type St0102Packet,
} from './st0102-security-set.js';
export {
  ST0903_VERSION_TAG,
  decodeSt0903LocalSet,
  encodeSt0903LocalSet,
  type St0903DecodeOptions,
  type St0903LocalSet,
} from './st0903-vmti-set.js';
export { decodeSt0903Packet, encodeSt0903Packet, type St0903Packet } from './st0903-vmti-packet.js';
export type { TaggedItemInput } from './st0903-tagged-set.js';
export { EG0104_ITEMS, eg0104KeyId, lookupEg0104Item, type Eg0104ItemSpec, type Eg0104ValueKind } from './eg0104-items.js';
export { decodeEg0104Packet, type Eg0104Item, type Eg0104Packet } from './eg0104-packet.js';

// Carriage in MPEG-TS (MISB ST 1402), raw KLV streams, and the observations made from KLV.
export { St1402Carriage, klvCarriageOf, type KlvCarriageKind } from './st1402-carriage.js';
export { createKlvAwareTsDemuxer } from './st1402-demuxer.js';
export { KlvStreamDemuxer, looksLikeRawKlv } from './klv-stream-demuxer.js';
export { KlvReassembler, MAX_KLV_VALUE_BYTES, type KlvOrigin, type KlvFramingEvents } from './klv-reassembler.js';
export { observeKlvPacket, klvErrorObservation, type KlvPacketContext } from './klv-packet-observer.js';
export { KLV_ERROR_CATALOG } from './klv-error-catalog.js';
export { KlvSummaryBuilder, type KlvPidSummary } from './klv-summary.js';
