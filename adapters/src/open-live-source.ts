/**
 * Opens a live source by its URL: `udp://…` (unicast, multicast, SSM; see
 * udp-source-url.ts), `serial:…` (see serial-source-url.ts) or `file:///…`
 * (a file paced by its PCR and looped, paced-ts-source.ts).
 */
import { AdapterError } from './adapter-error.js';
import type { LiveSource } from './live-source.js';
import { openFileSource } from './paced-ts-source.js';
import { openSerialSource } from './serial.js';
import { isSerialSourceUrl } from './serial-source-url.js';
import { openUdpSource } from './udp.js';

export function openLiveSource(url: string): Promise<LiveSource> {
  if (/^udp:/i.test(url)) return openUdpSource(url);
  if (isSerialSourceUrl(url)) return openSerialSource(url);
  if (/^file:/i.test(url)) return openFileSource(url);
  return Promise.reject(
    new AdapterError('ERR_SOURCE_URL_INVALID', `'${url}' is not a live source: use udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT, serial:///dev/ttyX?baud=N or file:///path.ts`, { url }),
  );
}
