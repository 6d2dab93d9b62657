/**
 * The output format of a raw dataset export: the `format` query parameter
 * when given (`json`, `ndjson` or `csv`; it wins, so a link can name its
 * format), else the Accept header (RFC 9110 12.5.1: the acceptable media
 * type of highest weight that we make; `*\/*`, `application/*` and a header
 * naming none of ours mean JSON), else JSON.
 */
import type { DatasetFormat } from '@klvscope/core/store';

/** The media types each format answers to in Accept (`application/ndjson` is the newer name of NDJSON). */
const ACCEPTED: ReadonlyArray<[string, DatasetFormat]> = [
  ['application/json', 'json'],
  ['application/x-ndjson', 'ndjson'],
  ['application/ndjson', 'ndjson'],
  ['text/csv', 'csv'],
  ['application/*', 'json'],
  ['*/*', 'json'],
];

export function datasetFormatOf(format: DatasetFormat | undefined, accept: string | undefined): DatasetFormat {
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
