/** A bitrate as the pages show it: `4.02 Mb/s`, `812.3 kb/s`, `0 b/s` (the viewer, the dashboard and the relay console alike). */
export function formatBitrate(bitsPerSecond: number): string {
  if (bitsPerSecond >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(2)} Mb/s`;
  if (bitsPerSecond >= 1e3) return `${(bitsPerSecond / 1e3).toFixed(1)} kb/s`;
  return `${Math.round(bitsPerSecond)} b/s`;
}
