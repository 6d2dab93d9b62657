/** How the panel writes ST 0601 values: fixed decimals per unit, an em dash where the packet lacks the item. */
const MISSING = '—';

export function formatDegrees(value: number | null, decimals = 6): string {
  return value === null ? MISSING : `${value.toFixed(decimals)}°`;
}

export function formatMetres(value: number | null, decimals = 1): string {
  return value === null ? MISSING : `${value.toFixed(decimals)} m`;
}

/** ST 0601 item 2 (microseconds since the epoch) as ISO 8601 UTC with microseconds. */
export function formatTimestampMicros(micros: number | null): string {
  if (micros === null || !Number.isFinite(micros)) return MISSING;
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString();
  const subMillis = String(Math.round(micros - millis * 1000)).padStart(3, '0');
  return `${iso.slice(0, 23)}${subMillis}Z`;
}

export function formatText(value: string | null): string {
  return value === null || value === '' ? MISSING : value;
}
