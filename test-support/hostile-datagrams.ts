/**
 * A hostile UDP feed for a live session (issue 35): the datagrams a broken or
 * malicious sender puts on a port, in a fixed order from a seed, so that a
 * run can be repeated. Five kinds in turn: random bytes of any size up to
 * 65,000; packets that start with the sync byte and hold noise; real TS
 * packets with bytes changed; RTP headers over short TS; and clean TS, in
 * order, between them (so that the checks have a stream to lose).
 */
import { createSocket } from 'node:dgram';
import { generateTransportStream } from '@klvscope/core';
import { wrapRtp } from '@klvscope/adapters';
import { seededRandom } from './random.js';

const TS_PACKET = 188;
const PACKETS_PER_DATAGRAM = 7;
const MAX_RANDOM_BYTES = 65_000;

export const HOSTILE_KINDS = ['random-bytes', 'sync-and-noise', 'changed-ts', 'rtp-over-short-ts', 'clean-ts'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileDatagram {
  kind: HostileKind;
  bytes: Uint8Array;
}

/** Endless datagrams of the five kinds in turn, from `seed`. */
export function* hostileDatagrams(seed: number): Generator<HostileDatagram, never, undefined> {
  const random = seededRandom(seed);
  const below = (n: number): number => Math.floor(random() * n);
  const noise = (length: number): Uint8Array => Uint8Array.from({ length }, () => below(256));
  const clean = generateTransportStream({ bitrate: 2_000_000, seed, durationSeconds: 4, klv: { carriage: 'sync' } }).bytes;
  const cleanPackets = Math.floor(clean.length / TS_PACKET);
  let next = 0;
  const cleanDatagram = (): Uint8Array => {
    const packets = Math.min(PACKETS_PER_DATAGRAM, cleanPackets - next);
    const bytes = clean.slice(next * TS_PACKET, (next + packets) * TS_PACKET);
    next = (next + packets) % cleanPackets;
    return bytes;
  };
  for (let i = 0; ; i++) {
    const kind = HOSTILE_KINDS[i % HOSTILE_KINDS.length];
    switch (kind) {
      case 'random-bytes':
        yield { kind, bytes: noise(1 + below(MAX_RANDOM_BYTES)) };
        break;
      case 'sync-and-noise': {
        const bytes = noise(TS_PACKET * (1 + below(PACKETS_PER_DATAGRAM)));
        for (let p = 0; p < bytes.length; p += TS_PACKET) bytes[p] = 0x47;
        yield { kind, bytes };
        break;
      }
      case 'changed-ts': {
        const bytes = cleanDatagram();
        for (let n = 1 + below(8); n > 0; n--) bytes[below(bytes.length)] = below(256);
        yield { kind, bytes };
        break;
      }
      case 'rtp-over-short-ts': {
        const ts = cleanDatagram().subarray(0, 1 + below(2 * TS_PACKET));
        yield { kind, bytes: wrapRtp(ts, { sequenceNumber: below(0x10000), timestamp: below(2 ** 32), ssrc: below(2 ** 32) }) };
        break;
      }
      case 'clean-ts':
        yield { kind, bytes: cleanDatagram() };
        break;
    }
  }
}

/**
 * Sends `count` hostile datagrams to 127.0.0.1:`port` (loopback only), a
 * burst at a time with a pause between bursts so the receiver keeps up, and
 * never longer than `maxMs`. Answers how many of each kind were sent.
 */
export async function sendHostileDatagrams(port: number, options: { count: number; seed: number; burst?: number; pauseMs?: number; maxMs?: number }): Promise<Record<HostileKind, number>> {
  const sent = Object.fromEntries(HOSTILE_KINDS.map((kind) => [kind, 0])) as Record<HostileKind, number>;
  const socket = createSocket('udp4');
  const deadline = performance.now() + (options.maxMs ?? 60_000);
  const datagrams = hostileDatagrams(options.seed);
  try {
    for (let i = 0; i < options.count && performance.now() < deadline; i++) {
      const { kind, bytes } = datagrams.next().value;
      await new Promise<void>((resolve, reject) => socket.send(bytes, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      sent[kind]++;
      if ((i + 1) % (options.burst ?? 50) === 0) await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 5));
    }
  } finally {
    socket.close();
  }
  return sent;
}
