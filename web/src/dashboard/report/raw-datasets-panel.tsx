/**
 * The run's nine raw datasets (docs/rest.md "Raw datasets"), each a row with
 * its export buttons: text (CSV, NDJSON) for a quick look, Arrow and Parquet
 * for pandas, polars, DuckDB or QGIS (issue 34's typed columns).
 */
import type { ApiClient } from '../api-client.js';
import { DatasetExportButtons, type ExportFormat } from '../dataset-download.js';

/** As core's RAW_DATASET_NAMES (the store's module is not part of the browser bundle), with what each holds. */
const RAW_DATASETS: ReadonlyArray<readonly [string, string]> = [
  ['mpegts/pid-stats', 'packets, bytes, PES and PCR counts per PID'],
  ['mpegts/pcr-values', 'every PCR'],
  ['mpegts/table-positions', 'every PAT, PMT and other table section'],
  ['mpegts/pes-timestamps', 'every PES header: PTS, DTS'],
  ['mpegts/discontinuity-indicators', 'every discontinuity indicator'],
  ['mpegts/errors', 'every transport error'],
  ['klv/packets', 'every KLV packet, its key and bytes'],
  ['klv/metadata-packets', 'every decoded metadata packet, ST 0601 items as columns'],
  ['klv/fields', 'every item of every packet'],
];

const FORMATS: readonly ExportFormat[] = ['csv', 'ndjson', 'arrow', 'parquet'];

export function RawDatasetsPanel({ api, runId }: { api: ApiClient; runId: string }) {
  return (
    <section class="panel raw-datasets">
      <h2>Raw datasets</h2>
      <p>Every row the inspection stored, as the REST interface exports it (docs/rest.md).</p>
      <table class="data">
        <tbody>
          {RAW_DATASETS.map(([name, holds]) => (
            <tr>
              <td>
                <code>{name}</code>
              </td>
              <td>{holds}</td>
              <td>
                <DatasetExportButtons api={api} runId={runId} dataset={name} formats={FORMATS} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
