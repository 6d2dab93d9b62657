/**
 * With a fleet, an inspection's stages run on a worker first; the local
 * workflow then finds every stage made and only reads them (fleet-link.ts).
 */
import type { InspectionDeps } from './inspection-deps.js';
import type { CheckSelection } from '../fleet/fleet-link.js';

/** The service's enabled checks and rules, which a worker runs in its place. */
export function checkSelectionOf(deps: InspectionDeps): CheckSelection {
  const { checks, rules } = deps.rules.checkRun();
  return { checks: checks.map((check) => check.id), rules };
}

/** Has the fleet inspect `path` (unless it holds it) and copies the result in; nothing without a fleet. */
export async function inspectOnFleet(deps: InspectionDeps, path: string, signal?: AbortSignal): Promise<void> {
  if (deps.fleet === null) return;
  const key = deps.rules.workflow().key;
  await deps.fleet.inspect(deps.store, path, checkSelectionOf(deps), { parseKey: key.parseKey, checkKey: key.checkKey }, signal);
}
