/**
 * The compatibility key: what makes a cached stage reusable. `analyze` and
 * `ingest` depend only on the parser (the observations it produces);
 * `process` and `report` also on the checks (ids and versions) and on the
 * effective rule set. Changing a rule changes the check key only, so the
 * stored ingest run is reused and only `process` and `report` run again.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/**
 * Version of the observations the engine produces from a file. Bump it when
 * the demuxer or the KLV decoders change what they emit: every cached
 * analyze and ingest stage then becomes stale.
 */
export const PARSER_VERSION = '1.1.1';

/**
 * Version of how a process run's points are stored (store/run-check-points.ts). Part of the check key:
 * points stored in another format are not reused, `process` runs again over the stored run and stores
 * them anew (2: points in blocks packed by column).
 */
export const POINT_STORE_FORMAT = 2;

export type WorkflowStage = 'analyze' | 'ingest' | 'process' | 'report';

export const WORKFLOW_STAGES: readonly WorkflowStage[] = ['analyze', 'ingest', 'process', 'report'];

export interface CheckIdentity {
  readonly id: string;
  readonly version: string;
}

export interface CompatibilityKey {
  parserVersion: string;
  /** The checks, sorted by id, as `id@version`. */
  checks: string[];
  /** SHA-256 of the effective rule set, as canonical JSON. */
  rulesHash: string;
  /** Key of the `analyze` and `ingest` stages. */
  parseKey: string;
  /** Key of the `process` and `report` stages. */
  checkKey: string;
}

export function compatibilityKey(checks: readonly CheckIdentity[], rules: unknown): CompatibilityKey {
  const checkList = checks.map((c) => `${c.id}@${c.version}`).sort();
  const rulesHash = sha256(canonicalJson(rules ?? null));
  const parseKey = `parser-${PARSER_VERSION}`;
  return {
    parserVersion: PARSER_VERSION,
    checks: checkList,
    rulesHash,
    parseKey,
    checkKey: sha256(canonicalJson({ parseKey, checks: checkList, rulesHash, pointFormat: POINT_STORE_FORMAT })),
  };
}

/** The key under which a stage's payload is cached. */
export function stageKey(key: CompatibilityKey, stage: WorkflowStage): string {
  return stage === 'analyze' || stage === 'ingest' ? key.parseKey : key.checkKey;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
