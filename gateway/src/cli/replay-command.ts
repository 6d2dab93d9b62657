/**
 * `klvscope replay FILE URL`: sends a transport stream file to a UDP address
 * (unicast or a multicast group) as a live feed, paced by its PCR. While it
 * runs, a status line on stderr (terminals only, like the progress bars of
 * the other commands); at the end, a summary on stdout. Ctrl+C (or SIGTERM)
 * stops it cleanly: the summary is still printed and the exit code is 0.
 * Exit code 1 when no datagram could be sent at all.
 */
import { AdapterError, MAX_PACKETS_PER_DATAGRAM, replayFile, type ReplayProgress, type ReplayStats } from '@klvscope/adapters';
import { count } from './inventory-text.js';
import { UsageError } from './usage-error.js';

export interface ReplayCliOptions {
  speed: string;
  loop?: boolean;
  rtp?: boolean;
  packetsPerDatagram: string;
  ttl?: string;
}

/** Codes that say the user's input (the file, the URL, the address) is unusable: one line and exit code 2. */
const USER_ERROR_CODES: ReadonlySet<string> = new Set(['ERR_DESTINATION_URL_INVALID', 'ERR_SOCKET', 'ERR_NO_PCR']);

/** The status line is redrawn this often at most. */
const STATUS_INTERVAL_MS = 250;

export async function runReplay(file: string, url: string, options: ReplayCliOptions): Promise<number> {
  const speed = parseSpeed(options.speed);
  const packetsPerDatagram = parseInteger('--packets-per-datagram', options.packetsPerDatagram, 1, MAX_PACKETS_PER_DATAGRAM);
  const destinationUrl = withTtl(url, options.ttl);
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const status = statusLine();
  let stats: ReplayStats;
  try {
    stats = await replayFile(file, destinationUrl, {
      speed,
      loop: options.loop ?? false,
      rtp: options.rtp ?? false,
      packetsPerDatagram,
      signal: controller.signal,
      onProgress: status.update,
    });
  } catch (error) {
    if (error instanceof AdapterError && USER_ERROR_CODES.has(error.code)) throw new UsageError(error.message);
    throw error;
  } finally {
    status.clear();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  process.stdout.write(`${summary(file, destinationUrl, stats)}\n`);
  return stats.datagrams === 0 && stats.sendErrors > 0 ? 1 : 0;
}

function parseSpeed(text: string): number {
  const speed = text === 'max' ? 0 : Number(text);
  if (text.trim() === '' || !(speed >= 0)) throw new UsageError(`--speed must be a number >= 0 (1 real time, 0 or max as fast as possible), got '${text}'`);
  return speed;
}

function parseInteger(name: string, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got '${text}'`);
  return value;
}

/** --ttl N is `?ttl=N` on the URL (the URL parser checks the value); giving both is ambiguous. */
function withTtl(url: string, ttl: string | undefined): string {
  if (ttl === undefined) return url;
  if (/[?&]ttl=/.test(url)) throw new UsageError('give the TTL once: either --ttl or ?ttl= in the URL');
  return `${url}${url.includes('?') ? '&' : '?'}ttl=${encodeURIComponent(ttl)}`;
}

function megabits(bytes: number, ms: number): string {
  return ms > 0 ? ((bytes * 8) / ms / 1000).toFixed(1) : '0.0';
}

function summary(file: string, url: string, stats: ReplayStats): string {
  let text =
    `${stats.aborted ? 'stopped replaying' : 'replayed'} ${file} to ${url}: ` +
    `${count(stats.datagrams)} datagrams (${count(stats.packets)} packets, ${(stats.bytes / 1e6).toFixed(1)} MB) ` +
    `in ${(stats.durationMs / 1000).toFixed(1)} s (${megabits(stats.bytes, stats.durationMs)} Mb/s)`;
  if (stats.loops > 0) text += `, ${stats.loops} loop${stats.loops === 1 ? '' : 's'}`;
  text += `, max lateness ${stats.maxLatenessMs.toFixed(1)} ms`;
  if (stats.sendErrors > 0) text += `\n  ${count(stats.sendErrors)} datagrams not sent: the system refused them (last: ${stats.lastSendError ?? 'unknown'})`;
  return text;
}

/** One line on stderr, redrawn in place, when stderr is a terminal. */
function statusLine(): { update: (progress: ReplayProgress) => void; clear: () => void } {
  if (!process.stderr.isTTY) return { update: () => undefined, clear: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    update(progress: ReplayProgress): void {
      const now = Date.now();
      if (now - last < STATUS_INTERVAL_MS) return;
      last = now;
      drawn = true;
      const percent = progress.fileBytes > 0 ? Math.floor((100 * progress.fileOffset) / progress.fileBytes) : 100;
      const pass = progress.loops > 0 ? ` | pass ${progress.loops + 1}` : '';
      const errors = progress.sendErrors > 0 ? ` | ${progress.sendErrors} send errors` : '';
      process.stderr.write(
        `\r\x1b[2KReplaying ${percent}%${pass} | ${(progress.durationMs / 1000).toFixed(1)} s | ${(progress.bytes / 1e6).toFixed(1)} MB | ${megabits(progress.bytes, progress.durationMs)} Mb/s${errors}`,
      );
    },
    clear(): void {
      if (drawn) process.stderr.write('\r\x1b[2K');
    },
  };
}
