/** Sizes as people read them: binary units, three significant digits (`2.15 MiB`). */
const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatByteSize(bytes: number | null): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toPrecision(3)} ${UNITS[unit]}`;
}
