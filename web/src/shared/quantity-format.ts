/**
 * One way to write a measured value on every page: to the microsecond for
 * times (the resolution the checks' messages use, "-7.937 ms", so a table
 * and the message beside it agree), a time under 1 ms in µs and under 1 µs
 * in ns rather than a row of zeros ("0.333 µs", not "0.000333333 ms"), at
 * most three decimals for other units, and thousands separated ("4,885").
 */
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const SMALLER_TIME_UNITS: Readonly<Record<string, string>> = { s: 'ms', ms: 'µs', 'µs': 'ns' };

export function formatQuantity(value: number | null, unit: string | null = null): string {
  if (value === null) return '—';
  let shown = value;
  let shownUnit = unit;
  while (shownUnit !== null && shownUnit in SMALLER_TIME_UNITS && shown !== 0 && Math.abs(shown) < 1) {
    shown *= 1000;
    shownUnit = SMALLER_TIME_UNITS[shownUnit];
  }
  // -0.0001 rounds to "-0": a zero has no sign.
  const text = NUMBER.format(shown).replace(/^-0$/, '0');
  return shownUnit ? `${text} ${shownUnit}` : text;
}
