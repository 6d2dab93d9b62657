/**
 * CSV text per RFC 4180: CRLF line ends; a field holding a comma, a double
 * quote, CR or LF is quoted, its quotes doubled. Beyond the RFC: null is an
 * empty field and the empty string a quoted empty field, so they stay
 * apart; nested values (objects, arrays) are their JSON text.
 */

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value === '' ? '""' : quoteIfNeeded(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'undefined':
      return '';
    case 'object':
      return value === null ? '' : quoteIfNeeded(JSON.stringify(value));
    default:
      return quoteIfNeeded(String(value));
  }
}

/** One record, CRLF included. */
export function csvLine(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvField(values[i]);
  return `${line}\r\n`;
}

function quoteIfNeeded(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
