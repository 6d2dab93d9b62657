/**
 * A stream time in a column of times: seconds always to three decimals (the
 * millisecond, the report's other time columns' resolution), thousands
 * separated, no unit (the column's header names it). formatQuantity drops
 * trailing zeros and goes to ms under a second, which in a column gives
 * "1.2 s" over "1.234 s" over "333.333 ms": digits that do not line up.
 */
const SECONDS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });

export function formatStreamSeconds(seconds: number): string {
  // -0.0001 rounds to "-0.000": a zero has no sign.
  return SECONDS.format(seconds).replace(/^-(0\.000)$/, '$1');
}
