/**
 * How each observation kind is laid out as a table of the run database: one
 * table per kind, named after it (`psi-section` -> `psi_section`), with
 * `seq` (the global emission order) as its primary key, then the position
 * and PID, then the kind's own fields. Scalars get their own column; nested
 * parts are JSON text (lossless-json.ts); `raw` bytes are a BLOB.
 *
 * The column maps below list every property of each observation type but
 * `kind` (the compiler checks it), so a field added to observations.ts
 * cannot be forgotten here. The CREATE TABLE statements of the schema
 * (dataset-schema.ts) must match them; a test compares the two.
 */
import type { ObservationKind, ObservationOf } from '../../kernel/observations.js';
import { OBSERVATION_KINDS } from '../../kernel/observation-kinds.js';

/** How a property is held in SQL: 'boolean' as 0/1, 'json' as JSON text, 'blob' as bytes. */
export type ColumnType = 'integer' | 'real' | 'text' | 'boolean' | 'json' | 'blob';

interface ColumnDefinition {
  readonly column: string;
  readonly type: ColumnType;
  /** null is one of the property's values, stored as SQL NULL. */
  readonly nullable?: true;
  /** The property may be absent from the observation; absent is stored as SQL NULL. */
  readonly optional?: true;
  /** SQL NULL when the value is made again from other rows (metadata-items-derivation.ts). */
  readonly derivable?: true;
}

export interface ObservationColumn {
  /** The SQL column (snake_case). */
  readonly column: string;
  /** The observation's property (camelCase, as in observations.ts). */
  readonly property: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly optional: boolean;
  readonly derivable: boolean;
}

export interface ObservationTable<K extends ObservationKind = ObservationKind> {
  readonly kind: K;
  readonly table: string;
  /** Every column after `seq`, in table order. */
  readonly columns: readonly ObservationColumn[];
}

/** One definition per property of the kind's observation, `kind` excepted; `-?` makes optional ones required here too. */
type ColumnsOf<K extends ObservationKind> = { readonly [P in Exclude<keyof ObservationOf<K>, 'kind'>]-?: ColumnDefinition };

const POSITION_AND_PID = {
  offset: { column: 'offset', type: 'integer' },
  packetIndex: { column: 'packet_index', type: 'integer' },
  t: { column: 't', type: 'real', nullable: true },
  pid: { column: 'pid', type: 'integer' },
} as const satisfies Record<string, ColumnDefinition>;

const PCR: ColumnsOf<'pcr'> = {
  ...POSITION_AND_PID,
  pcr27MHz: { column: 'pcr_27mhz', type: 'integer' },
  discontinuity: { column: 'discontinuity', type: 'boolean' },
};

const DISCONTINUITY: ColumnsOf<'discontinuity'> = {
  ...POSITION_AND_PID,
  hasPcr: { column: 'has_pcr', type: 'boolean' },
};

const PSI_SECTION: ColumnsOf<'psi-section'> = {
  ...POSITION_AND_PID,
  tableId: { column: 'table_id', type: 'integer' },
  tableType: { column: 'table_type', type: 'text' },
  tableIdExtension: { column: 'table_id_extension', type: 'integer' },
  version: { column: 'version', type: 'integer' },
  sectionNumber: { column: 'section_number', type: 'integer' },
  lastSectionNumber: { column: 'last_section_number', type: 'integer' },
  sectionLength: { column: 'section_length', type: 'integer' },
};

const PAT: ColumnsOf<'pat'> = {
  ...POSITION_AND_PID,
  transportStreamId: { column: 'transport_stream_id', type: 'integer' },
  version: { column: 'version', type: 'integer' },
  programs: { column: 'programs', type: 'json' },
};

const PMT: ColumnsOf<'pmt'> = {
  ...POSITION_AND_PID,
  programNumber: { column: 'program_number', type: 'integer' },
  version: { column: 'version', type: 'integer' },
  pcrPid: { column: 'pcr_pid', type: 'integer' },
  programDescriptors: { column: 'program_descriptors', type: 'json' },
  streams: { column: 'streams', type: 'json' },
};

const PES: ColumnsOf<'pes'> = {
  ...POSITION_AND_PID,
  streamId: { column: 'stream_id', type: 'integer' },
  pesPacketLength: { column: 'pes_packet_length', type: 'integer' },
  pts90kHz: { column: 'pts_90khz', type: 'integer', nullable: true },
  dts90kHz: { column: 'dts_90khz', type: 'integer', nullable: true },
  randomAccess: { column: 'random_access', type: 'boolean' },
};

const TS_ERROR: ColumnsOf<'ts-error'> = {
  ...POSITION_AND_PID,
  type: { column: 'type', type: 'text' },
  severity: { column: 'severity', type: 'text' },
  tr101290: { column: 'tr101290', type: 'text', nullable: true },
  message: { column: 'message', type: 'text' },
  details: { column: 'details', type: 'json', optional: true },
};

const PID_STATS: ColumnsOf<'pid-stats'> = {
  ...POSITION_AND_PID,
  packets: { column: 'packets', type: 'integer' },
  bytes: { column: 'bytes', type: 'integer' },
  pesCount: { column: 'pes_count', type: 'integer' },
  pesWithPts: { column: 'pes_with_pts', type: 'integer' },
  pesWithDts: { column: 'pes_with_dts', type: 'integer' },
  pcrCount: { column: 'pcr_count', type: 'integer' },
  continuityErrors: { column: 'continuity_errors', type: 'integer' },
  transportErrors: { column: 'transport_errors', type: 'integer' },
  scrambledPackets: { column: 'scrambled_packets', type: 'integer' },
  discontinuities: { column: 'discontinuities', type: 'integer' },
};

const KLV_PACKET: ColumnsOf<'klv-packet'> = {
  ...POSITION_AND_PID,
  klvIndex: { column: 'klv_index', type: 'integer' },
  carriage: { column: 'carriage', type: 'text' },
  keyHex: { column: 'key_hex', type: 'text' },
  keyName: { column: 'key_name', type: 'text', nullable: true },
  length: { column: 'length', type: 'integer' },
  raw: { column: 'raw', type: 'blob' },
  pts90kHz: { column: 'pts_90khz', type: 'integer', nullable: true },
};

const METADATA_PACKET: ColumnsOf<'metadata-packet'> = {
  ...POSITION_AND_PID,
  klvIndex: { column: 'klv_index', type: 'integer' },
  standard: { column: 'standard', type: 'text' },
  keyName: { column: 'key_name', type: 'text' },
  version: { column: 'version', type: 'integer', nullable: true },
  timestampMicros: { column: 'timestamp_micros', type: 'integer', nullable: true },
  checksum: { column: 'checksum', type: 'json', nullable: true },
  pts90kHz: { column: 'pts_90khz', type: 'integer', nullable: true },
  items: { column: 'items', type: 'json', derivable: true },
};

const KLV_FIELD: ColumnsOf<'klv-field'> = {
  ...POSITION_AND_PID,
  klvIndex: { column: 'klv_index', type: 'integer' },
  tag: { column: 'tag', type: 'integer' },
  name: { column: 'name', type: 'text' },
  rawHex: { column: 'raw_hex', type: 'text' },
  // `unknown`: null is a value here, so it is JSON 'null', never SQL NULL.
  value: { column: 'value', type: 'json' },
  units: { column: 'units', type: 'text', nullable: true },
};

const KLV_ERROR: ColumnsOf<'klv-error'> = {
  ...POSITION_AND_PID,
  klvIndex: { column: 'klv_index', type: 'integer', nullable: true },
  type: { column: 'type', type: 'text' },
  severity: { column: 'severity', type: 'text' },
  tag: { column: 'tag', type: 'integer', nullable: true },
  message: { column: 'message', type: 'text' },
  citation: { column: 'citation', type: 'text' },
  details: { column: 'details', type: 'json', optional: true },
};

function tableOf<K extends ObservationKind>(kind: K, columns: ColumnsOf<K>): ObservationTable<K> {
  return {
    kind,
    table: kind.replaceAll('-', '_'),
    columns: Object.entries<ColumnDefinition>(columns).map(([property, definition]) => ({
      column: definition.column,
      property,
      type: definition.type,
      nullable: definition.nullable === true,
      optional: definition.optional === true,
      derivable: definition.derivable === true,
    })),
  };
}

/** The table of every observation kind. */
export const OBSERVATION_TABLES: { readonly [K in ObservationKind]: ObservationTable<K> } = {
  pcr: tableOf('pcr', PCR),
  discontinuity: tableOf('discontinuity', DISCONTINUITY),
  'psi-section': tableOf('psi-section', PSI_SECTION),
  pat: tableOf('pat', PAT),
  pmt: tableOf('pmt', PMT),
  pes: tableOf('pes', PES),
  'ts-error': tableOf('ts-error', TS_ERROR),
  'pid-stats': tableOf('pid-stats', PID_STATS),
  'klv-packet': tableOf('klv-packet', KLV_PACKET),
  'metadata-packet': tableOf('metadata-packet', METADATA_PACKET),
  'klv-field': tableOf('klv-field', KLV_FIELD),
  'klv-error': tableOf('klv-error', KLV_ERROR),
};

/** The tables in OBSERVATION_KINDS order (the dispatch index of a kind is its table's index). */
export const OBSERVATION_TABLE_LIST: readonly ObservationTable[] = OBSERVATION_KINDS.map((kind) => OBSERVATION_TABLES[kind]);
