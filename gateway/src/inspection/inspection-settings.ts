/**
 * The service's configuration (also called settings): a small zod-checked
 * object. The catalog keeps only what the user changed (config key
 * `settings`), so a default changed by a new version reaches everyone who
 * left it alone. A PATCH is a JSON Merge Patch over those changes, checked
 * strictly against the whole schema before anything is saved.
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import * as z from 'zod/mini';
import { ensureEnglishZodMessages, type Logger } from '@klvscope/core';
import { deleteConfigValue, getConfigValue, setConfigValue, type Store } from '@klvscope/core/store';
import { applyMergePatch, isJsonObject, withoutEmptyObjects, type JsonObject } from './json-merge-patch.js';
import { fieldProblems, invalidFields } from '../http/request-validation.js';

export const SETTINGS_CONFIG_KEY = 'settings';

const absolutePath = z.string().check(
  z.minLength(1),
  z.refine((path) => isAbsolute(path), 'must be an absolute path'),
);

export const settingsSchema = z.strictObject({
  /** Folders whose recordings the file browser and the file endpoints may read; any other path is refused (403). */
  browseRoots: z.array(absolutePath),
  jobs: z.strictObject({
    /** Analysis, ingest and process jobs run at once (they read whole files: 1 keeps the disk sequential). Read at start. */
    concurrency: z.int().check(z.minimum(1), z.maximum(16)),
  }),
  playback: z.strictObject({
    /** How long a playback URL stays valid. */
    tokenTtlSeconds: z.int().check(z.minimum(10), z.maximum(86_400)),
  }),
  live: z.strictObject({
    /** A live source that sends nothing this long is reported as without data. */
    noDataSeconds: z.number().check(z.positive(), z.maximum(3_600)),
    /** How often a live session writes its new findings and metadata packets to its database (what a crash can lose at most). */
    persistSeconds: z.number().check(z.minimum(0.5), z.maximum(300)),
  }),
});

export type Settings = z.output<typeof settingsSchema>;

/** A PATCH body: any JSON object; what it may hold is checked after the merge, against settingsSchema. */
export const settingsPatchSchema = z.record(z.string(), z.unknown());

export function defaultSettings(home: string = homedir()): Settings {
  return {
    browseRoots: [home],
    jobs: { concurrency: 1 },
    playback: { tokenTtlSeconds: 3_600 },
    live: { noDataSeconds: 5, persistSeconds: 5 },
  };
}

export class InspectionSettings {
  private overrides: JsonObject;
  /** The effective settings, parsed once per change: every file request and playback token reads them. Shared: read, never change. */
  private effective: Settings | undefined;

  constructor(
    private readonly store: Store,
    private readonly defaults: Settings = defaultSettings(),
    log?: Logger,
  ) {
    ensureEnglishZodMessages();
    this.overrides = this.readStoredOverrides(log);
  }

  /** The effective settings: defaults with the user's changes. */
  current(): Settings {
    // Parsed on first use, not in the constructor: defaults that do not fit still fail here, where they always did.
    return (this.effective ??= settingsSchema.parse(applyMergePatch(this.defaults, this.overrides)));
  }

  /** Only what the user changed. */
  changes(): JsonObject {
    return structuredClone(this.overrides);
  }

  /** Applies a merge patch, refuses it whole (400 naming each field) if the result does not fit, saves the catalog. */
  async update(patch: JsonObject): Promise<Settings> {
    const overrides = withoutEmptyObjects(applyMergePatch(this.overrides, patch)) as JsonObject;
    const parsed = z.safeParse(settingsSchema, applyMergePatch(this.defaults, overrides));
    if (!parsed.success) throw invalidFields(parsed.error.issues.flatMap((issue) => fieldProblems('body', issue)));
    this.overrides = overrides;
    this.effective = parsed.data;
    const db = this.store.catalog.db;
    if (Object.keys(overrides).length === 0) deleteConfigValue(db, SETTINGS_CONFIG_KEY);
    else setConfigValue(db, SETTINGS_CONFIG_KEY, overrides, Date.now());
    await this.store.saveCatalog();
    return parsed.data;
  }

  /**
   * The stored changes, less any top-level section that no longer fits (a
   * setting removed or narrowed by another version): that section falls back
   * to its default rather than keeping the service from starting.
   */
  private readStoredOverrides(log?: Logger): JsonObject {
    const stored = getConfigValue(this.store.catalog.db, SETTINGS_CONFIG_KEY);
    if (!isJsonObject(stored)) return {};
    const kept: Array<[string, unknown]> = [];
    for (const [key, value] of Object.entries(stored)) {
      const candidate = Object.fromEntries([...kept, [key, value]]);
      if (z.safeParse(settingsSchema, applyMergePatch(this.defaults, candidate)).success) kept.push([key, value]);
      else log?.warn('stored setting ignored: it no longer fits the settings schema', { key });
    }
    return Object.fromEntries(kept);
  }
}
