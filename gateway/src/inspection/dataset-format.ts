/**
 * The output format of a raw dataset export: the `format` query parameter
 * when given (`json`, `ndjson`, `csv`, `arrow` or `parquet`; it wins, so a link can name its
 * format), else the Accept header (RFC 9110 12.5.1: the acceptable media
 * type of highest weight that we make; `*\/*`, `application/*` and a header
 * naming none of ours mean JSON), else JSON.
 */
import { COLUMNAR_FORMATS, DATASET_FORMATS, type ColumnarFormat, type DatasetFormat } from '@klvscope/core/store';

/** Every format a raw dataset is exported in: the text ones and the columnar ones. */
export const EXPORT_FORMATS = [...DATASET_FORMATS, ...COLUMNAR_FORMATS] as const;
export type ExportFormat = DatasetFormat | ColumnarFormat;

export function isColumnarFormat(format: ExportFormat): format is ColumnarFormat {
  return (COLUMNAR_FORMATS as readonly string[]).includes(format);
}

/** The media types each format answers to in Accept (`application/ndjson` is the newer name of NDJSON). */
const ACCEPTED: ReadonlyArray<[string, ExportFormat]> = [
  ['application/json', 'json'],
  ['application/x-ndjson', 'ndjson'],
  ['application/ndjson', 'ndjson'],
  ['text/csv', 'csv'],
  ['application/vnd.apache.arrow.stream', 'arrow'],
  ['application/vnd.apache.parquet', 'parquet'],
  ['application/*', 'json'],
  ['*/*', 'json'],
];

export function datasetFormatOf(format: ExportFormat | undefined, accept: string | undefined): ExportFormat {
  if (format !== undefined) return format;
  if (accept === undefined) return 'json';
  const ranges = accept
    .split(',')
    .map((range, order) => {
      const [type = '', ...params] = range.split(';').map((part) => part.trim());
      const q = params.find((param) => /^q=/i.test(param));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { type: type.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, order };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const range of ranges) {
    const match = ACCEPTED.find(([type]) => type === range.type);
    if (match) return match[1];
  }
  return 'json';
}
