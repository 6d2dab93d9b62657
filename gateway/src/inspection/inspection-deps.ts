/**
 * What the routes translate HTTP onto: the services of one running
 * inspection service, built once per server (createInspectionDeps) and
 * closed with it (closeInspectionDeps, before the store closes). Routes get
 * this object and nothing else, so a route file needs no knowledge of how
 * the service was put together.
 *
 * Adding a service (the workflow, the job queue, the file sessions, live
 * sessions, playback tokens): a field here, built in createInspectionDeps
 * from the store and the settings, stopped in closeInspectionDeps (stop jobs
 * and sessions there, so the store flushes what they wrote last).
 */
import type { Logger, Store } from '@klvscope/core';
import type { ApiKeySource } from './api-key.js';
import { InspectionSettings, type Settings } from './inspection-settings.js';

export interface ApiKeyInfo {
  readonly source: ApiKeySource;
  /** The key file, when the key comes from it. */
  readonly filePath: string | null;
  /** True when this start created the key file. */
  readonly created: boolean;
}

export interface InspectionDeps {
  readonly store: Store;
  readonly settings: InspectionSettings;
  /** Where the key comes from; never the key itself. */
  readonly apiKey: ApiKeyInfo;
  readonly appVersion: string;
  readonly startedAtMs: number;
  readonly log: Logger;
  readonly clock: () => number;
}

export interface InspectionDepsInput {
  store: Store;
  apiKey: ApiKeyInfo;
  appVersion: string;
  log: Logger;
  defaultSettings?: Settings;
  clock?: () => number;
}

export function createInspectionDeps(input: InspectionDepsInput): InspectionDeps {
  const clock = input.clock ?? Date.now;
  return {
    store: input.store,
    settings: new InspectionSettings(input.store, input.defaultSettings, input.log),
    apiKey: input.apiKey,
    appVersion: input.appVersion,
    startedAtMs: clock(),
    log: input.log,
    clock,
  };
}

/** Stops what the services run; the store is closed after this by whoever opened it. */
export async function closeInspectionDeps(_deps: InspectionDeps): Promise<void> {
  // Nothing runs yet: the job queue and the sessions stop here once they exist.
}
