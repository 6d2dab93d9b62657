/**
 * Loops seen from the configuration: a channel whose output reaches its own
 * input, or channels that feed each other in a cycle, turn one datagram into
 * an endless storm. An output reaches an input when it is sent to the
 * group and port the input joins, or to the address and port it binds (any
 * local address for an input bound to all of them). What the configuration
 * cannot show (a loop through another device) is caught at run time
 * (loop-detector.ts).
 */
import { networkInterfaces } from 'node:os';
import { parseUdpDestinationUrl, parseUdpSourceUrl, type UdpDestination, type UdpSourceAddress } from '@klvscope/adapters';
import type { FieldProblem } from '../http/request-validation.js';

export interface LoopCheckChannel {
  channelId: string;
  input: string;
  outputs: readonly string[];
  /** Where the channel is in the request, for the 400 (`channels[0]`); null for a channel already stored and not in the request. */
  field: string | null;
}

function localAddresses(): Set<string> {
  const addresses = new Set(['0.0.0.0']);
  for (const entries of Object.values(networkInterfaces())) for (const entry of entries ?? []) addresses.add(entry.address);
  return addresses;
}

function isLocal(host: string, local: Set<string>): boolean {
  return host.startsWith('127.') || local.has(host);
}

function reaches(output: UdpDestination, input: UdpSourceAddress, local: Set<string>): boolean {
  if (output.port !== input.port) return false;
  if (input.group !== null) return output.multicast && output.host === input.group && (input.source === null || isLocal(input.source, local));
  if (output.multicast) return false;
  return input.bindAddress === '0.0.0.0' ? isLocal(output.host, local) : output.host === input.bindAddress;
}

/** A 400 problem for each output of a requested channel that comes back to it, directly or through other channels. */
export function channelLoops(channels: readonly LoopCheckChannel[]): FieldProblem[] {
  const local = localAddresses();
  const inputs = channels.map((c) => parseUdpSourceUrl(c.input));
  const targets = channels.map((c) => c.outputs.map((url) => channels.flatMap((_, j) => (reaches(parseUdpDestinationUrl(url), inputs[j], local) ? [j] : []))));
  const feeds = targets.map((outputs) => [...new Set(outputs.flat())]);
  /** The channels from `from` to `to` along the feeds, or null. */
  const path = (from: number, to: number): number[] | null => {
    const previous = new Map<number, number>([[from, from]]);
    const queue = [from];
    while (queue.length > 0) {
      const at = queue.shift() as number;
      if (at === to) {
        const route = [to];
        while (route[0] !== from) route.unshift(previous.get(route[0]) as number);
        return route;
      }
      for (const next of feeds[at]) if (!previous.has(next)) previous.set(next, at), queue.push(next);
    }
    return null;
  };
  const problems: FieldProblem[] = [];
  channels.forEach((channel, i) => {
    if (channel.field === null) return;
    targets[i].forEach((reached, o) => {
      for (const j of reached) {
        const back = path(j, i);
        if (back === null) continue;
        const cycle = [i, ...back].map((k) => channels[k].channelId).join(' -> ');
        problems.push({ in: 'body', field: `${channel.field}.outputs[${o}]`, message: `makes a loop: it reaches the input of ${channels[j].channelId === channel.channelId ? 'its own channel' : `channel '${channels[j].channelId}'`}, and the datagrams come back (${cycle})` });
        break;
      }
    });
  });
  return problems;
}
