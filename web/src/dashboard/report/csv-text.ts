/**
 * A report table as CSV (RFC 4180: comma-separated, CRLF line ends, a field
 * with a comma, a quote or a line break quoted and its quotes doubled):
 * the rows given, or the rows of a table element as the page shows them.
 */

export function csvText(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A cell's text as shown, its white space collapsed (a cell's parts on several lines read as one). */
function cellText(cell: Element): string {
  return (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The header row and body rows of a table, each cell's text as the page shows it. */
export function rowsOfTable(table: HTMLTableElement): string[][] {
  const header = [...table.querySelectorAll('thead tr')].map((row) => [...row.children].map(cellText));
  const body = [...table.querySelectorAll('tbody tr')].map((row) => [...row.children].map(cellText));
  return [...header, ...body];
}
