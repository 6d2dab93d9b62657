/**
 * Opening a file session replaces whatever session is active, by whichever
 * endpoint it is opened (sessions or automation): the live session stops,
 * and the previous file session's playback tokens are revoked once the new
 * one is open, since a token plays its session's recording only while that
 * session is active. Stopping a file session revokes them as well.
 */
import type { IdentifyOptions, Workspace } from '@klvscope/core/workflow';
import type { InspectionDeps } from './inspection-deps.js';

export async function openReplacingActive(
  deps: Pick<InspectionDeps, 'fileSessions' | 'live' | 'playback'>,
  path: string,
  options: IdentifyOptions = {},
): Promise<Workspace> {
  const previous = deps.fileSessions.active();
  await deps.live.stopActive('replaced');
  const workspace = await deps.fileSessions.open(path, options);
  // After the open: a file that cannot be opened leaves the previous session active, and its tokens with it.
  if (previous) deps.playback.revokeFile(previous.path);
  return workspace;
}

/** Stops the active file session (ERR_NO_ACTIVE_SESSION without one), kept as `status`, and revokes its playback tokens. */
export async function stopFileSession(deps: Pick<InspectionDeps, 'fileSessions' | 'playback'>, status: 'stopped' | 'replaced' = 'stopped'): Promise<Workspace> {
  const stopped = await deps.fileSessions.stop(status);
  deps.playback.revokeFile(stopped.path);
  return stopped;
}
