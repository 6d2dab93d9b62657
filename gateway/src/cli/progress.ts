/**
 * A progress bar on stderr for long work, only when stderr is a terminal
 * (scripts and pipes get clean output). Built on cli-progress.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number): void;
  stop(): void;
}

/** Work below this many bytes finishes too fast for a bar to help. */
const MIN_BYTES_FOR_BAR = 32 * 1024 * 1024;

export function startProgress(label: string, total: number): Progress {
  if (!process.stderr.isTTY || total < MIN_BYTES_FOR_BAR) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {doneMB}/{totalMB} MB | {eta_formatted} left`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  bar.start(total, 0, { doneMB: '0', totalMB: mb(total) });
  let last = 0;
  return {
    update(done: number): void {
      // Redrawing costs more than the work between two chunks; a few times a second is enough.
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      bar.update(done, { doneMB: mb(done) });
    },
    stop(): void {
      bar.stop();
    },
  };
}
