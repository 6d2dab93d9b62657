/**
 * The TS recorder: a live MPEG-TS feed into files in a folder, rotated by
 * size or duration (file names: recording-file-name.ts).
 *
 * `write` is called on the streaming hot path, so it never throws and never
 * waits: it frames the bytes into whole 188-byte packets (resynchronising on
 * 0x47 like the serial source, ts-framer.ts; skipped bytes are counted),
 * decides where files end, and queues. One writer loop empties the queue.
 * Every write syscall it makes is a whole number of packets, so a process
 * killed at any moment leaves files of whole packets (up to what the kernel
 * itself may cut short: see docs/recording.md).
 *
 * A file ends at a packet boundary, at the first PAT packet (PID 0, section
 * start) once the size or duration threshold is reached, so each file can be
 * read alone; when no PAT comes, at twice the threshold anyway. Concatenated,
 * the files are exactly the packets recorded.
 *
 * Whatever goes wrong with the disk (full, folder gone, not writable), or a
 * disk slower than the feed for longer than the queue bound, turns the state
 * to 'failed' with a reason; the stream goes on unrecorded until `start()`
 * is called again.
 */
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { TS_PACKET_SIZE, type RecorderStateName, type RecorderStatus } from '@klvscope/core';
import { recordingFileName } from './recording-file-name.js';
import { applyRecordingRetention } from './recording-retention.js';
import { systemErrorReason } from './system-error-reason.js';
import { trimTornRecordings } from './torn-recordings.js';
import { TsFramer } from './ts-framer.js';

export interface TsRecorderOptions {
  /** Where the files go; created (with its parents) when missing. */
  folder: string;
  channelName: string;
  /** The mission name for the file name, read when each file starts; null or '' leaves it out. */
  missionName?: () => string | null;
  /** A file ends at the first PAT at or after this many bytes (default 1 GiB; Infinity: no size limit). */
  rotateBytes?: number;
  /** A file ends at the first PAT at or after this many seconds (default Infinity: no time limit). */
  rotateSeconds?: number;
  /** Bytes waiting for the disk before the recorder fails rather than grow (default 32 MiB). */
  maxQueuedBytes?: number;
  /**
   * Bytes of this channel's recordings kept in the folder at most (default Infinity: all kept). Past it,
   * at each start, each new file and each stop, its oldest files are deleted (recording-retention.ts).
   */
  keepBytes?: number;
  /** The clock of file names, start times and rotation, ms since the epoch (default Date.now). */
  now?: () => number;
}

export interface TsRecorderStats {
  /** Files opened since the recorder was made. */
  files: number;
  /** Bytes that reached the files (whole packets). */
  bytesWritten: number;
  /** Bytes framed and not yet written (queued, or in the write under way). */
  queuedBytes: number;
  /** Bytes given to `write` that were not TS packets (no 0x47 sync where one belongs), left out. */
  skippedBytes: number;
  /** Bytes given to `write` while failed: not recorded. */
  lostBytes: number;
  /** Files of the folder that ended inside a packet (a recorder killed mid-write), cut back to whole packets at the first start. */
  mendedFiles: number;
  /** The channel's oldest files deleted to keep its recordings within `keepBytes`. */
  deletedFiles: number;
}

const DEFAULT_ROTATE_BYTES = 1024 ** 3;
const DEFAULT_MAX_QUEUED_BYTES = 32 * 1024 * 1024;
/** The most bytes per write syscall: large enough for few syscalls, small enough to keep the queue moving. */
const MAX_WRITE_BYTES = 1024 * 1024;
/** How often an open file is checked for having been deleted (a removed folder): writes to it would vanish unseen. */
const LINK_CHECK_INTERVAL_MS = 1000;
/** The most `_<n>` suffixes tried before a name clash counts as a failure. */
const MAX_NAME_ATTEMPTS = 1000;

/** Where the next file starts: queued between the bytes of the file before and those of the next. */
interface NextFile {
  startedAt: number;
  missionName: string | null;
}

export class TsRecorder {
  /** Told of every change of `status()`: state, file (a rotation) or reason. Called synchronously; what it throws is ignored. */
  onStateChange: ((status: RecorderStatus) => void) | null = null;

  private readonly folder: string;
  private readonly rotateBytes: number;
  private readonly rotateMs: number;
  private readonly maxQueuedBytes: number;
  private readonly keepBytes: number;
  private readonly now: () => number;

  private state: RecorderStateName = 'stopped';
  private reason: string | null = null;
  /** When the current state began (the spec types `timeStarted` as a date-time text: never null); for `failed`, when the failed run began. */
  private timeStarted: string;
  private framer = new TsFramer();
  private handle: FileHandle | null = null;
  private path: string | null = null;
  /** Bytes assigned to the file being filled (queued or written) and when its first packet came: the rotation thresholds. */
  private fileBytes = 0;
  private fileStartedAt = 0;
  private readonly queue: Array<Uint8Array | NextFile> = [];
  private queuedBytes = 0;
  private draining: Promise<void> | null = null;
  private starting: Promise<RecorderStatus> | null = null;
  private stopping: Promise<RecorderStatus> | null = null;
  private linkCheckedAt = 0;
  private readonly counters = { files: 0, bytesWritten: 0, skippedBytes: 0, lostBytes: 0, mendedFiles: 0, deletedFiles: 0 };
  /** The retention pass under way: one at a time, beside the writer, never in its way. */
  private retaining: Promise<void> | null = null;
  /** Whether the folder was checked for files a killed recorder left ending inside a packet. */
  private tornChecked = false;

  constructor(private readonly options: TsRecorderOptions) {
    this.folder = options.folder;
    this.rotateBytes = positive(options.rotateBytes ?? DEFAULT_ROTATE_BYTES, 'rotateBytes');
    this.rotateMs = positive(options.rotateSeconds ?? Infinity, 'rotateSeconds') * 1000;
    this.maxQueuedBytes = positive(options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES, 'maxQueuedBytes');
    this.keepBytes = positive(options.keepBytes ?? Infinity, 'keepBytes');
    this.now = options.now ?? Date.now;
    this.timeStarted = new Date(this.now()).toISOString();
  }

  status(): RecorderStatus {
    return {
      state: this.state,
      timeStarted: this.timeStarted,
      file: this.state === 'running' ? this.path : null,
      reason: this.state === 'failed' ? this.reason : null,
    };
  }

  stats(): TsRecorderStats {
    return { ...this.counters, queuedBytes: this.queuedBytes };
  }

  /**
   * Opens the first file and records from then on. Already running: nothing changes. After a failure
   * it tries again with a new file. Never rejects: a folder or file that cannot be made gives the
   * status 'failed' with the reason.
   */
  async start(): Promise<RecorderStatus> {
    if (this.stopping) await this.stopping;
    if (this.state === 'running') return this.status();
    this.starting ??= this.open().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Records the bytes (any chunking, packets may be split). Never throws, never waits; ignored unless running. */
  write(bytes: Uint8Array): void {
    if (this.state !== 'running' || this.stopping) {
      if (this.state === 'failed') this.counters.lostBytes += bytes.length;
      return;
    }
    try {
      const framed = this.framer.push(bytes);
      for (const run of framed.noise) this.counters.skippedBytes += run.count;
      if (framed.bytes.length > 0) this.accept(framed.bytes);
    } catch (error) {
      this.fail(`recording stopped by an internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Writes what is queued (and the last packet held by the framer), fsyncs and closes the file, and
   * resolves 'stopped'. When the last bytes cannot be written, onStateChange hears 'failed' (with the
   * reason) before 'stopped'. A failed recorder just becomes 'stopped'.
   */
  stop(): Promise<RecorderStatus> {
    this.stopping ??= this.shutdown().finally(() => {
      this.stopping = null;
    });
    return this.stopping;
  }

  private async open(): Promise<RecorderStatus> {
    // A failed run's file is closed first.
    await this.draining;
    this.framer = new TsFramer();
    this.queue.length = 0;
    this.queuedBytes = 0;
    const now = this.now();
    try {
      await mkdir(this.folder, { recursive: true });
    } catch (error) {
      this.setFailed(`cannot create the folder ${this.folder}: ${systemErrorReason(error)}`, now);
      return this.status();
    }
    if (!this.tornChecked) {
      this.tornChecked = true;
      // A recorder killed before this one may have left a file ending inside a packet; a failure to mend it does not stop this one.
      this.counters.mendedFiles = (await trimTornRecordings(this.folder, now).catch(() => [])).length;
    }
    try {
      await this.openFile({ startedAt: now, missionName: this.missionName() });
    } catch (error) {
      this.setFailed(error instanceof Error ? error.message : String(error), now);
      return this.status();
    }
    this.fileBytes = 0;
    this.fileStartedAt = now;
    this.timeStarted = new Date(now).toISOString();
    this.setState('running');
    this.retain();
    return this.status();
  }

  private async shutdown(): Promise<RecorderStatus> {
    if (this.starting) await this.starting;
    if (this.state === 'running') {
      // The end of the stream: the packet the framer held for confirmation is whole, so it is kept.
      const rest = this.framer.flush();
      for (const run of rest.noise) this.counters.skippedBytes += run.count;
      if (rest.bytes.length > 0) this.enqueue(rest.bytes);
      this.kick();
    }
    await this.draining;
    if (this.state === 'running') {
      try {
        await this.closeFile();
      } catch (error) {
        this.fail(`cannot write ${this.path}: ${systemErrorReason(error)}`);
        await this.draining;
      }
    }
    // A pass begun before the last file closed may not have counted it: one more after it.
    await this.retaining;
    this.retain();
    await this.retaining;
    if (this.state !== 'stopped') this.timeStarted = new Date(this.now()).toISOString();
    this.setState('stopped');
    return this.status();
  }

  /** Starts a retention pass unless one is under way (or no budget is set); what it cannot delete it leaves. */
  private retain(): void {
    if (this.keepBytes === Infinity || this.retaining !== null) return;
    const current = this.state === 'running' ? this.path : null;
    this.retaining = applyRecordingRetention(this.folder, this.options.channelName, this.keepBytes, current)
      .then(({ deleted }) => {
        this.counters.deletedFiles += deleted.length;
      })
      .catch(() => undefined)
      .finally(() => {
        this.retaining = null;
      });
  }

  /** Splits framed packets into files and queues them. */
  private accept(packets: Uint8Array): void {
    const now = this.now();
    let pos = 0;
    while (pos < packets.length) {
      const cut = this.cutPoint(packets, pos, now);
      if (cut < 0) {
        this.enqueue(packets.subarray(pos));
        return;
      }
      if (cut > pos) this.enqueue(packets.subarray(pos, cut));
      const next: NextFile = { startedAt: now, missionName: this.missionName() };
      this.queue.push(next);
      this.fileBytes = 0;
      this.fileStartedAt = now;
      pos = cut;
    }
  }

  /** Where in `packets` (from `pos`) the next file starts, or -1 when the current file takes them all. */
  private cutPoint(packets: Uint8Array, pos: number, now: number): number {
    const elapsedMs = now - this.fileStartedAt;
    // A file is never left empty: it ends after at least one packet.
    const firstCut = this.fileBytes > 0 ? pos : pos + TS_PACKET_SIZE;
    const forced = elapsedMs >= 2 * this.rotateMs ? firstCut : Math.max(firstCut, pos + roundUpToPackets(2 * this.rotateBytes - this.fileBytes));
    let at = elapsedMs >= this.rotateMs ? firstCut : Math.max(firstCut, pos + roundUpToPackets(this.rotateBytes - this.fileBytes));
    for (; at < packets.length; at += TS_PACKET_SIZE) {
      if (at >= forced || isPatStart(packets, at)) return at;
    }
    return -1;
  }

  private enqueue(packets: Uint8Array): void {
    if (this.queuedBytes + packets.length > this.maxQueuedBytes) {
      this.fail(`the disk fell behind: more than ${this.maxQueuedBytes} bytes were waiting to be written to ${this.path}`);
      return;
    }
    this.queue.push(packets);
    this.queuedBytes += packets.length;
    this.fileBytes += packets.length;
    this.kick();
  }

  private kick(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** The one writer: the queue's bytes into the files, in order; then, once failed, the file closed. */
  private async drain(): Promise<void> {
    while (this.state === 'running' && this.queue.length > 0) {
      const item = this.queue[0];
      if (item instanceof Uint8Array) {
        const batch = this.takeBatch();
        try {
          await this.writeBatch(batch);
          // Counted until written: the bound is on memory, and the batch is in memory until then.
          if (this.state === 'running') this.queuedBytes -= batch.length;
        } catch (error) {
          await this.cutToWholePackets();
          this.fail(this.writeFailure(error));
        }
        continue;
      }
      this.queue.shift();
      try {
        await this.closeFile();
        await this.openFile(item);
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error));
        continue;
      }
      this.retain();
      this.notify();
    }
    if (this.state === 'failed') await this.closeQuietly();
  }

  /** Queued chunks up to MAX_WRITE_BYTES (at least one) as one buffer: whole packets, since every chunk is. */
  private takeBatch(): Uint8Array {
    let count = 0;
    let length = 0;
    for (const item of this.queue) {
      if (!(item instanceof Uint8Array) || (count > 0 && length + item.length > MAX_WRITE_BYTES)) break;
      count++;
      length += item.length;
    }
    const chunks = this.queue.splice(0, count) as Uint8Array[];
    if (count === 1) return chunks[0];
    const batch = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      batch.set(chunk, at);
      at += chunk.length;
    }
    return batch;
  }

  private async writeBatch(batch: Uint8Array): Promise<void> {
    const handle = this.handle as FileHandle;
    let at = 0;
    // A regular file takes it all in one call but for a full disk, whose next call then fails.
    while (at < batch.length) {
      const { bytesWritten } = await handle.write(batch, at, batch.length - at);
      at += bytesWritten;
    }
    this.counters.bytesWritten += batch.length;
    const now = this.now();
    if (now - this.linkCheckedAt >= LINK_CHECK_INTERVAL_MS) {
      this.linkCheckedAt = now;
      if ((await handle.stat()).nlink === 0) this.fail(`${this.path} was deleted while being recorded (was its folder removed?)`);
    }
  }

  /** Why a write failed; on a full disk, which disk, and what of the recording is kept. */
  private writeFailure(error: unknown): string {
    const failure = `cannot write ${this.path}: ${systemErrorReason(error)}`;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EDQUOT') return failure;
    return `${failure}: the disk holding ${this.folder} is full; the file keeps its whole packets, and \`recorder start\` records again once there is space`;
  }

  /** After a failed write (a full disk may take part of it): the file keeps its whole packets only. */
  private async cutToWholePackets(): Promise<void> {
    try {
      const handle = this.handle as FileHandle;
      const { size } = await handle.stat();
      if (size % TS_PACKET_SIZE !== 0) await handle.truncate(size - (size % TS_PACKET_SIZE));
    } catch {
      // Best effort: the failure reported is the write's.
    }
  }

  /** Opens the file that starts at `next`, never over an existing one. Rejects with a readable message. */
  private async openFile(next: NextFile): Promise<void> {
    for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
      const name = recordingFileName({ channelName: this.options.channelName, missionName: next.missionName, startedAt: next.startedAt, attempt });
      const path = join(this.folder, name);
      try {
        this.handle = await open(path, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new Error(`cannot create ${path}: ${systemErrorReason(error)}`, { cause: error });
      }
      this.path = path;
      this.linkCheckedAt = this.now();
      this.counters.files++;
      return;
    }
    throw new Error(`cannot create a file in ${this.folder}: the names of ${MAX_NAME_ATTEMPTS} attempts are all taken`);
  }

  /** fsync and close: the file is complete on disk before the next one starts or `stop` resolves. A file that got no packet (a source stopped or silent all along) is removed: an empty file is no recording. */
  private async closeFile(): Promise<void> {
    const handle = this.handle;
    if (handle === null) return;
    let size: number;
    try {
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      this.handle = null;
      await handle.close();
    }
    if (size === 0 && this.path !== null) await unlink(this.path);
  }

  private async closeQuietly(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }

  private missionName(): string | null {
    try {
      return this.options.missionName?.() ?? null;
    } catch {
      return null;
    }
  }

  /** Fails the running recording: the queue is dropped, the writer closes the file. */
  private fail(reason: string): void {
    if (this.state !== 'running') return;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.reason = reason;
    this.setState('failed');
    this.kick();
  }

  private setFailed(reason: string, now: number): void {
    this.reason = reason;
    this.timeStarted = new Date(now).toISOString();
    this.setState('failed');
  }

  private setState(state: RecorderStateName): void {
    this.state = state;
    this.notify();
  }

  private notify(): void {
    try {
      this.onStateChange?.(this.status());
    } catch {
      // A listener's error is not the recorder's: the stream goes on.
    }
  }
}

/** `bytes` rounded up to whole packets (0 when not positive). */
function roundUpToPackets(bytes: number): number {
  return bytes <= 0 ? 0 : Math.ceil(bytes / TS_PACKET_SIZE) * TS_PACKET_SIZE;
}

/** A PAT packet that starts a section (ISO 13818-1 2.4.4.3: PID 0; payload_unit_start_indicator set). */
function isPatStart(packets: Uint8Array, at: number): boolean {
  return (packets[at + 1] & 0x5f) === 0x40 && packets[at + 2] === 0;
}

function positive(value: number, name: string): number {
  if (!(value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}
