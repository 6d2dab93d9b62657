/** The raw datasets of an ingest run: the observation tables, their writer and replay, and the nine exported datasets. */
export { DatasetError, type DatasetErrorCode } from './dataset-error.js';
export { RAW_DATASET_MIGRATIONS, type RawDatasetMigration } from './dataset-schema.js';
export { OBSERVATION_TABLES, type ObservationTable, type ObservationColumn, type ColumnType } from './observation-columns.js';
export { countObservations, emptyObservationCounts, totalObservations, type ObservationCounts } from './observation-counts.js';
export { createObservationWriter, DEFAULT_ROWS_PER_TRANSACTION, type ObservationWriter, type ObservationWriterOptions } from './observation-writer.js';
export { replayObservations } from './observation-replay.js';
export { summarizePart, singleDatabaseParts, FILTER_COLUMNS, type DatasetPart, type DatasetParts, type PartHandle } from './dataset-parts.js';
export type { DatasetRow } from './observation-row-codec.js';
export { RAW_DATASETS, RAW_DATASET_NAMES, rawDataset, isRawDatasetName, type RawDatasetDefinition, type RawDatasetName, type DatasetFilter } from './raw-datasets.js';
export {
  readDataset,
  listParameter,
  DEFAULT_DATASET_LIMIT,
  MAX_DATASET_LIMIT,
  TABLE_TYPE_FILTER_VALUES,
  TS_ERROR_TYPES,
  type DatasetPage,
  type DatasetQueryOptions,
} from './dataset-query.js';
export {
  exportDataset,
  writeDataset,
  DATASET_FORMATS,
  DATASET_MEDIA_TYPES,
  DEFAULT_CHUNK_BYTES,
  type DatasetExport,
  type DatasetExportOptions,
  type DatasetExportSummary,
  type DatasetFormat,
} from './dataset-export.js';
export {
  exportDatasetColumnar,
  COLUMNAR_FORMATS,
  COLUMNAR_MEDIA_TYPES,
  PARQUET_ROW_GROUP_ROWS,
  type ColumnarExport,
  type ColumnarExportOptions,
  type ColumnarFormat,
} from './dataset-columnar-export.js';
export { datasetArrowLayout, type DatasetArrowLayout, type ArrowFieldLayout, type St0601ItemColumn } from './dataset-arrow-layout.js';
