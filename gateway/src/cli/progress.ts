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
/** Likewise for stored observations replayed (a stored run's `process`: about a million a second). */
const MIN_OBSERVATIONS_FOR_BAR = 1_000_000;

/** What the bar counts: bytes (shown in MB) or stored observations (shown in millions). */
export type ProgressUnit = 'bytes' | 'observations';

export function startProgress(label: string, total: number, unit: ProgressUnit = 'bytes'): Progress {
  const minimum = unit === 'bytes' ? MIN_BYTES_FOR_BAR : MIN_OBSERVATIONS_FOR_BAR;
  if (!process.stderr.isTTY || total < minimum) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {doneMB}/{totalMB} ${unit === 'bytes' ? 'MB' : 'M observations'} | {eta_formatted} left`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const mb = (count: number): string => (count / 1e6).toFixed(unit === 'bytes' ? 0 : 1);
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

/** A bar over a count of things (a batch's recordings), on a terminal only. */
export function startCountProgress(label: string, total: number, things: string): Progress {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} ${things} | {eta_formatted} left`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
