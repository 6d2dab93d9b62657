/**
 * The one way the live page writes a time of day: local, 24-hour, two
 * digits each (`14:03:07`), with milliseconds where events come many a
 * second (`14:03:07.250`). Elements that show one carry `data-clock`.
 */
const two = (n: number): string => String(n).padStart(2, '0');

export function formatClockTime(epochMs: number, options: { milliseconds?: boolean } = {}): string {
  const date = new Date(epochMs);
  const clock = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  return options.milliseconds ? `${clock}.${String(date.getMilliseconds()).padStart(3, '0')}` : clock;
}
