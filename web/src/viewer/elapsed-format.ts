/** `m:ss.s`, or `h:mm:ss.s` past an hour: a tenth of a second tells frames of a 10 Hz feed apart. */
export function formatElapsed(seconds: number): string {
  const tenths = Math.max(0, Math.round(seconds * 10));
  const hours = Math.floor(tenths / 36_000);
  const minutes = Math.floor((tenths % 36_000) / 600);
  const secondsText = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secondsText}` : `${minutes}:${secondsText}`;
}
