/**
 * One ffmpeg child process, as the transcoder and the capture source run
 * it: MPEG-TS on stdout, its last stderr lines kept for the error message,
 * its end turned into `null` (asked for, or a clean end of input) or an
 * AdapterError that says how it ended and what ffmpeg said last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { AdapterError } from './adapter-error.js';
import { systemErrorReason } from './system-error-reason.js';

/** stderr lines kept: ffmpeg says why it stopped in its last few. */
const STDERR_LINES = 8;
const STDERR_LINE_LENGTH = 300;

export interface FfmpegProcessOptions {
  /** Whether ffmpeg reads its input from stdin (the transcoder) rather than a device (`-nostdin` otherwise). */
  stdin: boolean;
  /** What it is for, to begin error messages: "transcoder", "capture of /dev/video0". */
  what: string;
}

export class FfmpegProcess {
  readonly stdout: Readable;
  /** ffmpeg's input, when `stdin` was asked for. */
  readonly stdin: Writable | null;
  /** Resolves once ffmpeg has gone: null when it was stopped or ended cleanly, else why it failed. Never rejects. */
  readonly exited: Promise<AdapterError | null>;

  private readonly child: ChildProcess;
  private readonly stderrLines: string[] = [];
  private stderrPartial = '';
  private stopping = false;
  private gone = false;

  constructor(
    readonly ffmpegPath: string,
    readonly args: readonly string[],
    private readonly options: FfmpegProcessOptions,
  ) {
    const fullArgs = ['-hide_banner', '-nostats', '-loglevel', 'error', ...(options.stdin ? [] : ['-nostdin']), ...args];
    this.child = spawn(ffmpegPath, fullArgs, { stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    this.stdout = this.child.stdout as Readable;
    this.stdin = this.child.stdin;
    // Writing to an ffmpeg that has gone raises EPIPE here; its exit tells the story.
    this.stdin?.on('error', () => undefined);
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => this.keepStderr(text));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.gone = true;
        resolve(
          new AdapterError('ERR_FFMPEG_NOT_FOUND', `${options.what}: cannot run ffmpeg at ${ffmpegPath}: ${systemErrorReason(error)}`, { ffmpeg: ffmpegPath }, { cause: error }),
        );
      });
      this.child.once('close', (code, signal) => {
        this.gone = true;
        resolve(this.exitError(code, signal));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** ffmpeg's last stderr lines, joined by ' | '. */
  lastStderr(): string {
    const lines = this.stderrPartial.trim() ? [...this.stderrLines, this.stderrPartial.trim()] : this.stderrLines;
    return lines.slice(-STDERR_LINES).join(' | ');
  }

  /**
   * Ends ffmpeg: closes its input (it then writes what it holds and exits) or, reading a device,
   * asks it to stop (SIGTERM); after `graceMs` it is killed. Resolves once it has gone.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (!this.gone) {
      if (this.stdin) this.stdin.end();
      else this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
  }

  private keepStderr(text: string): void {
    const lines = (this.stderrPartial + text).split('\n');
    this.stderrPartial = lines.pop() ?? '';
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed) this.stderrLines.push(trimmed.slice(0, STDERR_LINE_LENGTH));
    }
    if (this.stderrLines.length > STDERR_LINES) this.stderrLines.splice(0, this.stderrLines.length - STDERR_LINES);
  }

  private exitError(code: number | null, signal: NodeJS.Signals | null): AdapterError | null {
    if (code === 0 || (this.stopping && (signal !== null || code === 255))) return null;
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
    const said = this.lastStderr();
    return new AdapterError('ERR_FFMPEG_FAILED', `${this.options.what}: ffmpeg ${how}${said ? `: ${said}` : ' (it said nothing)'}`, {
      ffmpeg: this.ffmpegPath,
      exitCode: code,
      signal,
      stderr: said,
    });
  }
}
