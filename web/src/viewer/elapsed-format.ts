/**
 * `m:ss.s`, or `h:mm:ss.s` past an hour: a tenth of a second tells frames of a 10 Hz feed apart; a stepped frame is
 * named to the millisecond (`fractionDigits` 3), the precision mpegts.js keeps.
 */
export function formatElapsed(seconds: number, fractionDigits: 1 | 3 = 1): string {
  const perSecond = 10 ** fractionDigits;
  const units = Math.max(0, Math.round(seconds * perSecond));
  const hours = Math.floor(units / (3600 * perSecond));
  const minutes = Math.floor((units % (3600 * perSecond)) / (60 * perSecond));
  const secondsText = ((units % (60 * perSecond)) / perSecond).toFixed(fractionDigits).padStart(3 + fractionDigits, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secondsText}` : `${minutes}:${secondsText}`;
}
