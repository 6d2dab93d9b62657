/**
 * Opens a live source by its URL: `udp://…` (unicast, multicast, SSM; see
 * udp-source-url.ts) or `serial:…` (see serial-source-url.ts).
 */
import { AdapterError } from './adapter-error.js';
import type { LiveSource } from './live-source.js';
import { openSerialSource } from './serial.js';
import { openUdpSource } from './udp.js';

export function openLiveSource(url: string): Promise<LiveSource> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'udp') return openUdpSource(url);
  if (scheme === 'serial') return openSerialSource(url);
  return Promise.reject(
    new AdapterError('ERR_SOURCE_URL_INVALID', `'${url}' is not a live source: use udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT or serial:///dev/ttyX?baud=N`, { url }),
  );
}
