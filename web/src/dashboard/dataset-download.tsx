/**
 * Export buttons for a raw dataset of an ingest run: the whole dataset as
 * the REST interface gives it (GET /automation/ingest-runs/{id}/<dataset>
 * with format=csv, ndjson, arrow or parquet), saved as a file. The key travels in the
 * X-API-Key header, which a plain link cannot send, hence a fetch and a
 * blob to save.
 */
import { useState } from 'preact/hooks';
import { apiUrl, type ApiClient } from './api-client.js';

export type ExportFormat = 'csv' | 'ndjson' | 'arrow' | 'parquet';

const FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = { csv: 'CSV', ndjson: 'NDJSON', arrow: 'Arrow', parquet: 'Parquet' };

async function downloadDataset(api: ApiClient, runId: string, dataset: string, format: ExportFormat): Promise<void> {
  const response = await fetch(apiUrl(`/automation/ingest-runs/${encodeURIComponent(runId)}/${dataset}`, { format }), { headers: { 'X-API-Key': api.apiKey } });
  if (!response.ok) throw new Error(`the export answered ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${runId}-${dataset.replace('/', '-')}.${format}`;
  link.click();
  // The browser has the blob once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function DatasetExportButtons({ api, runId, dataset, formats = ['csv', 'ndjson'] }: { api: ApiClient; runId: string; dataset: string; formats?: readonly ExportFormat[] }) {
  const [problem, setProblem] = useState<string | null>(null);
  const start = (format: ExportFormat) => {
    setProblem(null);
    downloadDataset(api, runId, dataset, format).catch((error: unknown) => setProblem((error as Error).message));
  };
  return (
    <span class="dataset-export" data-dataset={dataset}>
      {formats.map((format) => (
        <>
          <button type="button" class={`export-${format}`} onClick={() => start(format)}>
            Export {FORMAT_NAMES[format]}
          </button>{' '}
        </>
      ))}
      {problem !== null && (
        <span class="error" role="alert">
          {' '}
          Could not export: {problem}
        </span>
      )}
    </span>
  );
}
