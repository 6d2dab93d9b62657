/** Times as the files page writes them: UTC to the second (`2026-03-01 12:00:00`), from ISO 8601 or epoch milliseconds. */
export function formatUtcTime(time: string | number): string {
  return new Date(time).toISOString().replace('T', ' ').slice(0, 19);
}
