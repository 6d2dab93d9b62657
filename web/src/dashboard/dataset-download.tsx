/**
 * Export buttons for a raw dataset of an ingest run: the whole dataset as
 * the REST interface gives it (GET /automation/ingest-runs/{id}/<dataset>
 * with format=csv or ndjson), saved as a file. The key travels in the
 * X-API-Key header, which a plain link cannot send, hence a fetch and a
 * blob to save.
 */
import { useState } from 'preact/hooks';
import { apiUrl, type ApiClient } from './api-client.js';

type ExportFormat = 'csv' | 'ndjson';

async function downloadDataset(api: ApiClient, runId: string, dataset: string, format: ExportFormat): Promise<void> {
  const response = await fetch(apiUrl(`/automation/ingest-runs/${encodeURIComponent(runId)}/${dataset}`, { format }), { headers: { 'X-API-Key': api.apiKey } });
  if (!response.ok) throw new Error(`the export answered ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${runId}-${dataset.replace('/', '-')}.${format === 'csv' ? 'csv' : 'ndjson'}`;
  link.click();
  // The browser has the blob once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function DatasetExportButtons({ api, runId, dataset }: { api: ApiClient; runId: string; dataset: string }) {
  const [problem, setProblem] = useState<string | null>(null);
  const start = (format: ExportFormat) => {
    setProblem(null);
    downloadDataset(api, runId, dataset, format).catch((error: unknown) => setProblem((error as Error).message));
  };
  return (
    <span class="dataset-export" data-dataset={dataset}>
      <button type="button" class="export-csv" onClick={() => start('csv')}>
        Export CSV
      </button>{' '}
      <button type="button" class="export-ndjson" onClick={() => start('ndjson')}>
        Export NDJSON
      </button>
      {problem !== null && (
        <span class="error" role="alert">
          {' '}
          Could not export: {problem}
        </span>
      )}
    </span>
  );
}
