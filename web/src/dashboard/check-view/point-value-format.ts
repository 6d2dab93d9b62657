/** A point's value as the page writes it: six significant digits (a 33.333333333333336 ms interval reads 33.3333 ms). */
export function formatPointValue(value: number | null, unit: string | null = null): string {
  if (value === null) return '—';
  const text = String(Number(value.toPrecision(6)));
  return unit ? `${text} ${unit}` : text;
}
