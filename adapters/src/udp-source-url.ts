/**
 * What a live UDP source URL asks for:
 *
 *   udp://GROUP:PORT             multicast (224.0.0.0/4): join GROUP
 *   udp://SOURCE@GROUP:PORT      source-specific multicast (RFC 4607): join GROUP for SOURCE only
 *   udp://HOST:PORT              unicast: receive on the local address HOST
 *   udp://:PORT, udp://0.0.0.0:PORT   unicast on every local address
 *
 * Options: `interface=ADDR` (the local address of the interface that joins
 * the group; multicast only), `rcvbuf=BYTES` (kernel receive buffer asked
 * for; default 8 MiB), `rtp=auto|on|off` (RTP unwrapping; default auto).
 * Errors are AdapterError ERR_SOURCE_URL_INVALID naming the problem.
 */
import { integerParam, ipv4Param, isMulticastIpv4, parseUdpUrl, udpUrlFailure } from './udp-url.js';

export type RtpMode = 'auto' | 'on' | 'off';

export interface UdpSourceAddress {
  /** The address bound: the group for multicast (so the socket gets that group's datagrams only), the host for unicast, else 0.0.0.0. */
  bindAddress: string;
  /** 0 lets the system pick a free port (unicast only). */
  port: number;
  /** The multicast group to join, or null for unicast. */
  group: string | null;
  /** The only sender accepted (source-specific multicast), or null. */
  source: string | null;
  /** The local address of the interface that joins the group, or null to let the routing table choose. */
  interfaceAddress: string | null;
  /** The kernel receive buffer asked for; the kernel may grant less (net.core.rmem_max). */
  receiveBufferBytes: number;
  rtp: RtpMode;
}

/** About 0.7 s of a 100 Mb/s feed: room for the consumer's pauses (a GC, a slow check) before the kernel drops. */
export const DEFAULT_RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;

const USAGE = 'use udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT or udp://:PORT, options interface=ADDR, rcvbuf=BYTES, rtp=auto|on|off';
const OPTIONS = ['interface', 'rcvbuf', 'rtp'] as const;
const RTP_MODES: readonly RtpMode[] = ['auto', 'on', 'off'];

export function parseUdpSourceUrl(url: string): UdpSourceAddress {
  const fail = udpUrlFailure('ERR_SOURCE_URL_INVALID', url, USAGE);
  const { source, host, port, params } = parseUdpUrl(url, OPTIONS, fail);
  const multicast = host !== '' && isMulticastIpv4(host);
  const interfaceAddress = ipv4Param(params, 'interface', fail);
  if (multicast && port === 0) fail('a multicast group needs a port other than 0');
  if (!multicast && source !== null) fail(`${source}@ names the sender of a source-specific multicast group, but '${host || '0.0.0.0'}' is not a multicast address`);
  if (source !== null && (isMulticastIpv4(source) || source === '0.0.0.0')) fail(`the source '${source}' must be the unicast address of the sender`);
  if (!multicast && interfaceAddress !== null) fail('interface= applies to multicast groups; for unicast, put the local address in the host (udp://ADDR:PORT)');
  const rtp = params.get('rtp') ?? 'auto';
  if (!RTP_MODES.includes(rtp as RtpMode)) fail(`rtp must be auto, on or off, got '${rtp}'`);
  return {
    bindAddress: host === '' ? '0.0.0.0' : host,
    port,
    group: multicast ? host : null,
    source,
    interfaceAddress,
    receiveBufferBytes: integerParam(params, 'rcvbuf', 4096, 0x7fffffff, DEFAULT_RECEIVE_BUFFER_BYTES, fail),
    rtp: rtp as RtpMode,
  };
}
