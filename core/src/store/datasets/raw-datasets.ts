/**
 * The nine raw datasets an ingest run exports (inspection-service.md "Raw
 * datasets", GET /automation/ingest-runs/{id}/<name>): each is the stored
 * observations of one kind, one row per observation. The REST layer and the
 * docs list them from here.
 */
import type { ObservationKind } from '../../kernel/observations.js';
import { DatasetError } from './dataset-error.js';
import { rowCodecOf } from './observation-row-codec.js';

export const RAW_DATASET_NAMES = [
  'mpegts/pid-stats',
  'mpegts/pcr-values',
  'mpegts/table-positions',
  'mpegts/pes-timestamps',
  'mpegts/discontinuity-indicators',
  'mpegts/errors',
  'klv/packets',
  'klv/metadata-packets',
  'klv/fields',
] as const;

export type RawDatasetName = (typeof RAW_DATASET_NAMES)[number];

/** The optional filters a dataset may take (query parameters of the same name). */
export type DatasetFilter = 'tableType' | 'types';

export interface RawDatasetDefinition {
  readonly name: RawDatasetName;
  /** The observation kind whose rows it holds. */
  readonly kind: ObservationKind;
  readonly description: string;
  readonly filters: readonly DatasetFilter[];
  /** The row's fields in order (also the CSV header): `seq`, position, PID, then the kind's fields. */
  readonly fields: readonly string[];
}

interface DatasetEntry {
  readonly kind: ObservationKind;
  readonly description: string;
  readonly filters?: readonly DatasetFilter[];
}

const ENTRIES: Readonly<Record<RawDatasetName, DatasetEntry>> = {
  'mpegts/pid-stats': {
    kind: 'pid-stats',
    description:
      'Totals per PID at the end of the file: packets, bytes, PES packets (with PTS, with DTS), PCRs, continuity and transport errors, scrambled packets, discontinuity indicators.',
  },
  'mpegts/pcr-values': {
    kind: 'pcr',
    description: 'Every PCR sample: PID, PCR in 27 MHz ticks (pcr27MHz), and the discontinuity_indicator of its adaptation field.',
  },
  'mpegts/table-positions': {
    kind: 'psi-section',
    description:
      'Where each PSI section with a valid CRC starts: table_id and table type, table_id_extension, version, section numbers and length. tableType=PAT or PMT keeps only those tables.',
    filters: ['tableType'],
  },
  'mpegts/pes-timestamps': {
    kind: 'pes',
    description: 'Every PES packet start: PID, stream_id, PES_packet_length, PTS and DTS in 90 kHz ticks (null when absent), random_access_indicator.',
  },
  'mpegts/discontinuity-indicators': {
    kind: 'discontinuity',
    description: 'Every adaptation field with discontinuity_indicator set: PID, and whether the same adaptation field carries a PCR (hasPcr).',
  },
  'mpegts/errors': {
    kind: 'ts-error',
    description:
      'Every transport stream problem the parser found: type, severity, TR 101 290 clause, message and details. types=<type>[,<type>...] keeps only those error types.',
    filters: ['types'],
  },
  'klv/packets': {
    kind: 'klv-packet',
    description:
      'Every KLV triplet as received: PID, klvIndex, carriage (sync, async, raw), universal key (keyHex, keyName), value length, PTS, and the whole triplet as hex (rawHex).',
  },
  'klv/metadata-packets': {
    kind: 'metadata-packet',
    description:
      'Every decoded metadata packet (MISB ST 0601, ST 0903, EG 0104): standard, version, time stamp (µs since 1970), checksum verdict, PTS, and the decoded items.',
  },
  'klv/fields': {
    kind: 'klv-field',
    description: 'One row per top-level item of each decoded metadata packet: klvIndex, tag, name, raw value as hex, decoded value and units.',
  },
};

/** Every raw dataset, in RAW_DATASET_NAMES order. */
export const RAW_DATASETS: readonly RawDatasetDefinition[] = RAW_DATASET_NAMES.map((name) => {
  const { kind, description, filters = [] } = ENTRIES[name];
  const codec = rowCodecOf(kind);
  return { name, kind, description, filters, fields: codec?.datasetFields ?? [] };
});

export function isRawDatasetName(name: string): name is RawDatasetName {
  return (RAW_DATASET_NAMES as readonly string[]).includes(name);
}

/** The dataset of that name, or ERR_DATASET_UNKNOWN. */
export function rawDataset(name: string): RawDatasetDefinition {
  const dataset = RAW_DATASETS.find((d) => d.name === name);
  if (dataset === undefined) {
    throw new DatasetError('ERR_DATASET_UNKNOWN', `no raw dataset is named '${name}' (known: ${RAW_DATASET_NAMES.join(', ')})`, {
      dataset: name,
      known: RAW_DATASET_NAMES,
    });
  }
  return dataset;
}
