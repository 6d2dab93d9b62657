/**
 * Sizes as people read them, in the decimal units the CLI prints (`generate`,
 * `replay`, `archive`: MB), three significant digits (`2.25 MB`): one size
 * reads the same in the terminal and on the page.
 */
const UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB'];

export function formatByteSize(bytes: number | null): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toPrecision(3)} ${UNITS[unit]}`;
}
