/**
 * Where ffmpeg is: `KLVSCOPE_FFMPEG` when set, else `ffmpeg` on the PATH.
 * ffmpeg is optional (the transcoder and the capture source need it), so
 * its absence is an answer (null), and the error made of it says what to
 * install.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { AdapterError } from './adapter-error.js';

export const FFMPEG_ENV = 'KLVSCOPE_FFMPEG';

/** The ffmpeg executable to run, or null when there is none. */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env[FFMPEG_ENV];
  // A path that is set but wrong is not silently replaced by another ffmpeg.
  if (configured) return isExecutableFile(configured) ? configured : null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'ffmpeg');
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** ERR_FFMPEG_NOT_FOUND for `what` (e.g. "transcoding MPEG-2 video for the browser"), saying what to install or set. */
export function ffmpegNotFound(what: string, env: NodeJS.ProcessEnv = process.env): AdapterError {
  const configured = env[FFMPEG_ENV];
  const where = configured ? `${FFMPEG_ENV}=${configured} is not an executable file` : 'no ffmpeg on the PATH';
  return new AdapterError(
    'ERR_FFMPEG_NOT_FOUND',
    `${what} needs ffmpeg with libx264, and there is ${where}: install it (Debian/Ubuntu: apt-get install ffmpeg) or set ${FFMPEG_ENV} to its path`,
    { ffmpeg: configured ?? null },
  );
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
