/**
 * The one data model: every fact the engine learns about a stream is an
 * observation. Checks consume them; ingest runs store them as rows.
 *
 * Every observation carries its position: `offset` (byte offset of the TS
 * packet's sync byte, or of the KLV key in a raw KLV source), `packetIndex`
 * (0-based index of the TS packet; -1 for sources that are not TS) and `t`
 * (stream time in seconds since the first PCR of the time base, interpolated
 * by byte position between PCRs; null before the first PCR or without PCR).
 */

export interface Position {
  /** Byte offset in the source of the packet (sync byte) the observation comes from. */
  offset: number;
  /** 0-based index of that TS packet in the source; -1 when the source is not TS. */
  packetIndex: number;
  /** Stream time in seconds (see above); null when unknown. */
  t: number | null;
}

/** A PCR sample (ISO 13818-1 2.4.3.5, program_clock_reference). */
export interface PcrObservation extends Position {
  kind: 'pcr';
  pid: number;
  /** 42-bit PCR in 27 MHz ticks: base * 300 + extension. */
  pcr27MHz: number;
  /** The discontinuity_indicator of the same adaptation field. */
  discontinuity: boolean;
}

/** A discontinuity_indicator set in an adaptation field (ISO 13818-1 2.4.3.5). */
export interface DiscontinuityObservation extends Position {
  kind: 'discontinuity';
  pid: number;
  /** Whether the same adaptation field carries a PCR. */
  hasPcr: boolean;
}

export type PsiTableType = 'PAT' | 'PMT' | 'CAT' | 'NIT' | 'SDT' | 'EIT' | 'TDT' | 'TOT' | 'other';

/** A PSI/SI section whose CRC is valid, at the position of the packet that started it (ISO 13818-1 2.4.4). */
export interface PsiSectionObservation extends Position {
  kind: 'psi-section';
  pid: number;
  tableId: number;
  tableType: PsiTableType;
  /** table_id_extension (transport_stream_id for PAT, program_number for PMT). */
  tableIdExtension: number;
  version: number;
  sectionNumber: number;
  lastSectionNumber: number;
  sectionLength: number;
}

export interface ProgramEntry {
  programNumber: number;
  /** PMT PID, or network PID for program_number 0. */
  pid: number;
}

/** A complete PAT (ISO 13818-1 2.4.4.3). Emitted for every PAT section received. */
export interface PatObservation extends Position {
  kind: 'pat';
  pid: 0;
  transportStreamId: number;
  version: number;
  programs: ProgramEntry[];
}

export interface Descriptor {
  tag: number;
  /** Name of the descriptor when known (registration, metadata, metadata_STD, ISO_639_language, ...). */
  name: string;
  /** The descriptor body (without tag and length) as hex. */
  dataHex: string;
  /** Decoded fields for the descriptors we understand; absent for the others (kept raw). */
  fields?: Record<string, string | number | boolean>;
}

export interface ElementaryStream {
  streamType: number;
  streamTypeName: string;
  pid: number;
  descriptors: Descriptor[];
}

/** A complete PMT (ISO 13818-1 2.4.4.8). Emitted for every PMT section received. */
export interface PmtObservation extends Position {
  kind: 'pmt';
  pid: number;
  programNumber: number;
  version: number;
  pcrPid: number;
  programDescriptors: Descriptor[];
  streams: ElementaryStream[];
}

/** The start of a PES packet (ISO 13818-1 2.4.3.6), with its timestamps. */
export interface PesObservation extends Position {
  kind: 'pes';
  pid: number;
  streamId: number;
  /** PES_packet_length; 0 means unbounded (allowed for video). */
  pesPacketLength: number;
  /** 33-bit PTS in 90 kHz ticks, or null when absent. */
  pts90kHz: number | null;
  /** 33-bit DTS in 90 kHz ticks, or null when absent. */
  dts90kHz: number | null;
  /** random_access_indicator of the packet that starts this PES. */
  randomAccess: boolean;
}

/**
 * Stable names of the problems the TS parser reports, with the TR 101 290
 * clause each one belongs to (see `tsErrorClause`).
 */
export type TsErrorType =
  | 'sync-loss'
  | 'sync-byte-error'
  | 'continuity-error'
  | 'duplicate-packet'
  | 'transport-error'
  | 'psi-crc-error'
  | 'pat-error'
  | 'pmt-error'
  | 'malformed-psi-section'
  | 'malformed-pes-header'
  | 'malformed-adaptation-field'
  | 'scrambled-packet'
  | 'truncated-packet';

export type Severity = 'info' | 'warning' | 'error';

/** Severities in rising order, for sorting and filtering points by severity. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

/** A problem found while parsing the transport stream. Findings are data, never exceptions. */
export interface TsErrorObservation extends Position {
  kind: 'ts-error';
  /** The PID concerned, or -1 when none (sync loss, truncated final packet). */
  pid: number;
  type: TsErrorType;
  severity: Severity;
  /** ETSI TR 101 290 clause, e.g. '1.4', or null where TR 101 290 has none. */
  tr101290: string | null;
  message: string;
  details?: Record<string, string | number | boolean | null>;
}

/** Totals per PID at the end of a source (the pid-stats dataset). */
export interface PidStatsObservation extends Position {
  kind: 'pid-stats';
  pid: number;
  packets: number;
  bytes: number;
  pesCount: number;
  pesWithPts: number;
  pesWithDts: number;
  pcrCount: number;
  continuityErrors: number;
  transportErrors: number;
  scrambledPackets: number;
  discontinuities: number;
}

/**
 * One complete KLV triplet as received (SMPTE 336). Its position is that of
 * the TS packet starting the PES that carried its key (for a raw KLV source:
 * the key's byte offset, packetIndex -1).
 */
export interface KlvPacketObservation extends Position {
  kind: 'klv-packet';
  /** The PID that carried it; -1 for a raw KLV source. */
  pid: number;
  /** 0-based index of this KLV packet among those of its PID: links metadata, fields and problems to it. */
  klvIndex: number;
  /** How it was carried: MISB ST 1402 synchronous (AU cells), asynchronous, or a raw KLV byte stream. */
  carriage: 'sync' | 'async' | 'raw';
  /** 16-byte universal key as lowercase hex. */
  keyHex: string;
  /** Name of the key in the registry, or null when unknown. */
  keyName: string | null;
  /** Value length in bytes (from the BER length). */
  length: number;
  /** The whole triplet (key, length, value) exactly as received. */
  raw: Uint8Array;
  /** PTS of the PES that carried it, or null (asynchronous carriage without PTS, raw KLV). */
  pts90kHz: number | null;
}

/** A decoded KLV item: plain JSON-able data (no bigint, no class instances), stored and sent as is. */
export interface KlvItem {
  tag: number;
  name: string;
  units: string | null;
  /** The value bytes exactly as received, lower-case hex. */
  rawHex: string;
  /** number | string | JSON-able object; null when the bytes could not be decoded (see `error`). */
  value: unknown;
  deprecated: boolean;
  /** Why the value could not be decoded, when it could not. */
  error?: string;
}

/** A decoded metadata packet: ST 0601, ST 0903 or EG 0104. */
export interface MetadataPacketObservation extends Position {
  kind: 'metadata-packet';
  pid: number;
  klvIndex: number;
  /** The standard of the key, e.g. 'MISB ST 0601'. */
  standard: string;
  keyName: string;
  /** ST 0601 item 65 / ST 0903 item 4; null when absent. */
  version: number | null;
  /** ST 0601 item 2 / ST 0903 item 2 / EG 0104 UNIX time stamp: microseconds since 1970-01-01T00:00:00Z. */
  timestampMicros: number | null;
  /** The checksum verdict; null when the standard has none (EG 0104) or the packet carries none (ST 0903). */
  checksum: { present: boolean; stored: number | null; computed: number; valid: boolean } | null;
  pts90kHz: number | null;
  items: KlvItem[];
}

/** One top-level item of a decoded metadata packet, as a normalized row. */
export interface KlvFieldObservation extends Position {
  kind: 'klv-field';
  pid: number;
  klvIndex: number;
  tag: number;
  name: string;
  rawHex: string;
  value: unknown;
  units: string | null;
}

export type KlvErrorType =
  | 'klv-raw-decode-error'
  | 'klv-unknown-key'
  | 'klv-legacy-set'
  | 'klv-undecoded-set'
  | 'klv-checksum-error'
  | 'klv-unknown-tag'
  | 'klv-duplicate-tag'
  | 'klv-missing-mandatory'
  | 'klv-bad-item-length';

/** A problem with KLV bytes or their content. Findings are data, never exceptions. */
export interface KlvErrorObservation extends Position {
  kind: 'klv-error';
  pid: number;
  /** The KLV packet concerned, or null when no packet could be framed. */
  klvIndex: number | null;
  type: KlvErrorType;
  severity: Severity;
  /** The item's tag, or null for problems of the whole packet. */
  tag: number | null;
  message: string;
  /** The standard clause the rule comes from. */
  citation: string;
  details?: Record<string, string | number | boolean | null>;
}

export type ObservationKind = Observation['kind'];

export type Observation =
  | PcrObservation
  | DiscontinuityObservation
  | PsiSectionObservation
  | PatObservation
  | PmtObservation
  | PesObservation
  | TsErrorObservation
  | PidStatsObservation
  | KlvPacketObservation
  | MetadataPacketObservation
  | KlvFieldObservation
  | KlvErrorObservation;

/** The observation of one kind, for typed handlers: `ObservationOf<'pcr'>`. */
export type ObservationOf<K extends ObservationKind> = Extract<Observation, { kind: K }>;

/** Where observations go. */
export type ObservationSink = (observation: Observation) => void;
