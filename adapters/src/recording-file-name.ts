/**
 * File names of recordings: `<channel>_<mission>_<UTC start>[_<n>].ts`, e.g.
 * `ch1_RECON-7_20261127T031500Z.ts` (`_<mission>` left out when there is
 * none; `_<n>` added by the recorder when the name is taken). Only
 * `[A-Za-z0-9._-]` survive, so a name given by an operator can neither
 * climb out of the folder nor trouble a shell or another file system.
 */

/** Longest channel or mission part kept, so the whole name stays far below the 255-byte limit of common file systems. */
const MAX_PART_LENGTH = 64;

export interface RecordingFileNameParts {
  channelName: string;
  missionName: string | null;
  /** When the file's first packet arrived, ms since the epoch. */
  startedAt: number;
  /** 0 for the plain name; 1, 2, ... when the names before are taken. */
  attempt: number;
}

export function recordingFileName({ channelName, missionName, startedAt, attempt }: RecordingFileNameParts): string {
  const channel = channelPart(channelName);
  const mission = missionName === null ? '' : sanitizePart(missionName);
  const parts = [channel, ...(mission ? [mission] : []), utcStamp(startedAt), ...(attempt > 0 ? [String(attempt)] : [])];
  return `${parts.join('_')}.ts`;
}

/** How every file name of the channel begins: `<channel>_`. */
export function recordingChannelPrefix(channelName: string): string {
  return `${channelPart(channelName)}_`;
}

function channelPart(channelName: string): string {
  return sanitizePart(channelName) || 'channel';
}

/** `[A-Za-z0-9._-]` only; runs of anything else become one `-`; no leading dot (no hidden file, no `..`). */
function sanitizePart(text: string): string {
  return text
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, MAX_PART_LENGTH);
}

/** ISO 8601 basic format, UTC, whole seconds: 20261127T031500Z. */
function utcStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}
