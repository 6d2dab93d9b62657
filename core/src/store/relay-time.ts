/**
 * The one form the relay stores a time in: ISO 8601 in UTC with
 * milliseconds (`2026-04-01T10:00:00.000Z`), what `Date.toISOString` gives.
 * Every stored time has the same length and zone, so text order is time
 * order and the collection filters (`time_gte`) compare times, whatever
 * form (`10:00:00Z`, `12:00:00+02:00`) a client gave.
 */

/** A full date-time with a zone (Z or ±hh:mm), as RFC 3339 writes it. */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

/** The canonical form of an RFC 3339 date-time; null when `text` is not one. */
export function canonicalTime(text: string): string | null {
  if (!DATE_TIME.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
