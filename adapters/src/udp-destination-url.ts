/**
 * Where a replay sends: `udp://HOST:PORT[?ttl=N&interface=ADDR]`, HOST a
 * unicast address or a multicast group (224.0.0.0/4). `ttl` is the time to
 * live (hops) of the datagrams: for a group it defaults to 1, so a replay
 * stays on the local network unless asked. `interface` is the local address
 * to send from: for a group, the interface it leaves by as well (and the
 * source address a source-specific receiver must name).
 * Errors are AdapterError ERR_DESTINATION_URL_INVALID naming the problem.
 */
import { integerParam, ipv4Param, isMulticastIpv4, parseUdpUrl, udpUrlFailure } from './udp-url.js';

export interface UdpDestination {
  host: string;
  port: number;
  multicast: boolean;
  /** Hops, or null for the system default (unicast) and 1 for a group. */
  ttl: number | null;
  /** The local address to send from, or null to let the routing table choose. */
  interfaceAddress: string | null;
}

const USAGE = 'use udp://HOST:PORT or udp://GROUP:PORT, options ttl=N, interface=ADDR';
const OPTIONS = ['ttl', 'interface'] as const;

export function parseUdpDestinationUrl(url: string): UdpDestination {
  const fail = udpUrlFailure('ERR_DESTINATION_URL_INVALID', url, USAGE);
  const { source, host, port, params } = parseUdpUrl(url, OPTIONS, fail);
  if (source !== null) fail(`'${source}@' names a sender; a destination has none`);
  if (host === '' || host === '0.0.0.0') fail('the destination address is missing');
  if (port === 0) fail('the destination port must be from 1 to 65535');
  const multicast = isMulticastIpv4(host);
  return {
    host,
    port,
    multicast,
    // A group may use TTL 0 (this host only); a unicast datagram needs at least one hop.
    ttl: params.has('ttl') ? integerParam(params, 'ttl', multicast ? 0 : 1, 255, 1, fail) : multicast ? 1 : null,
    interfaceAddress: ipv4Param(params, 'interface', fail),
  };
}
