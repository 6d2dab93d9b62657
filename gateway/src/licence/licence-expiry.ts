/**
 * How a vendor says when a licence ends, turned into the payload's
 * `expiresAt` (the last instant it is valid, UTC): a calendar date means
 * "through that day" in UTC, an ISO 8601 date-time is taken as given, a
 * number of days counts from the issue instant.
 */
import { LicenceError } from './licence-error.js';

const MS_PER_DAY = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Seconds and an explicit offset required: a date-time without a zone means different instants on different machines.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** `2027-12-31` → `2027-12-31T23:59:59.999Z`; `2027-12-31T12:00:00+02:00` → `2027-12-31T10:00:00.000Z`. */
export function expiryFromText(text: string, issuedAt: Date): string {
  const dateOnly = DATE_ONLY.exec(text);
  let expiresMs: number;
  if (dateOnly) {
    const [year, month, day] = dateOnly.slice(1).map(Number);
    const startMs = Date.UTC(year, month - 1, day);
    // Date.UTC rolls 2027-02-30 over to March; refuse rather than guess.
    if (new Date(startMs).toISOString().slice(0, 10) !== text) throw invalid(`'${text}' is not a calendar date`);
    expiresMs = startMs + MS_PER_DAY - 1;
  } else if (DATE_TIME.test(text) && Number.isFinite(Date.parse(text))) {
    expiresMs = Date.parse(text);
  } else {
    throw invalid(`expiry '${text}' is neither a date (2027-12-31) nor an ISO 8601 date-time with a zone (2027-12-31T18:00:00Z)`);
  }
  return checkedAfter(expiresMs, issuedAt);
}

/** `days` whole days after `issuedAt`. */
export function expiryAfterDays(days: number, issuedAt: Date): string {
  if (!Number.isSafeInteger(days) || days <= 0) throw invalid(`days must be a positive whole number, got ${days}`);
  return checkedAfter(issuedAt.getTime() + days * MS_PER_DAY, issuedAt);
}

function checkedAfter(expiresMs: number, issuedAt: Date): string {
  const expires = new Date(expiresMs);
  if (Number.isNaN(expires.getTime())) throw invalid('the expiry is out of range');
  if (expiresMs <= issuedAt.getTime()) throw invalid(`the expiry ${expires.toISOString()} is not after the issue time ${issuedAt.toISOString()}`);
  return expires.toISOString();
}

function invalid(message: string): LicenceError {
  return new LicenceError('ERR_LICENCE_PAYLOAD_INVALID', message);
}
