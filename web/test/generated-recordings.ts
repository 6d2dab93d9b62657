/**
 * Generated recordings for the dashboard's browser tests: STANAG 4609 streams
 * from core's generator, with the faults a test asks for, written into a
 * fresh temporary folder that a test passes to the service as a browse root.
 * The generator returns each injected fault as ground truth, so a test can
 * say which checks must fail, and where.
 */
import { mkdtempSync, openSync, realpathSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGenerator, parseFaultSpec, type GeneratorOptions, type InjectedFault } from '@klvscope/core';

export interface GeneratedRecording {
  /** Absolute path (the folder resolved, as the service resolves browse roots). */
  path: string;
  name: string;
  size: number;
  /** Ground truth: every fault the generator injected, with its packet and time. */
  faults: InjectedFault[];
}

export interface RecordingsFolder {
  /** The folder, resolved (realpath), to give the service as a browse root. */
  root: string;
  /**
   * Writes a generated stream as `name`; `faults` are fault specs (`pcr-gap@2`,
   * `klv-checksum@1`, see core/src/gen/README.md). Written chunk by chunk, so a
   * recording of tens of MB costs no more memory than a small one.
   */
  write(name: string, options: Omit<GeneratorOptions, 'faults'> & { faults?: string[] }): GeneratedRecording;
  remove(): void;
}

export function createRecordingsFolder(): RecordingsFolder {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-dashboard-recordings-')));
  return {
    root,
    write(name, { faults = [], ...options }) {
      const stream = createGenerator({ ...options, faults: faults.map((spec) => parseFaultSpec(spec)) });
      const path = join(root, name);
      const fd = openSync(path, 'w');
      let size = 0;
      try {
        for (const chunk of stream.chunks()) size += writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
      return { path, name, size, faults: stream.faults };
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
