/**
 * A "CSV" button for one report table: made in the browser from the rows
 * the table holds and saved as `<recording>-<table>.csv`. The report's data
 * is already on the page, so no request is made (the KLV datasets, too
 * large for the page, have their server export: dataset-download.tsx).
 */
import { csvText } from './csv-text.js';

/** The recording's file name without its folder and extension: `flight` for /srv/flight.ts. */
export function recordingStem(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function saveText(text: string, fileName: string): void {
  // A byte order mark: spreadsheet programs then read the file as UTF-8 (µs, ×, —).
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The browser has the blob once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function CsvExportButton({ filePath, table, rows }: { filePath: string; table: string; rows: () => string[][] }) {
  return (
    <button type="button" class="csv-export" data-table={table} title={`Save this table as ${recordingStem(filePath)}-${table}.csv`} onClick={() => saveText(csvText(rows()), `${recordingStem(filePath)}-${table}.csv`)}>
      CSV
    </button>
  );
}
