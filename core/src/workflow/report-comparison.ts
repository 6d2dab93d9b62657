/**
 * Two reports side by side (GET /api/v1/compare?a=…&b=…, the dashboard's
 * compare page): the recording before and after a change of encoder or
 * link. Each figure is given for both files, a PID, KLV PID or check
 * present in one only has null on the other side, and `changed` says where
 * the two differ, so a client need not know which figures matter.
 */
import type { CheckSummary, ValueStatistics, Verdict } from '../kernel/check-summary.js';
import type { KlvPidSummary } from '../klv/klv-summary.js';
import type { Inventory } from '../ts/inventory.js';

/** A report's overall verdict. Defined here, not in stage-payloads.ts: this file is also the browser's and must not reach Node's crypto. */
export type OverallVerdict = 'pass' | 'warn' | 'fail';

/** What a comparison reads of a report: the part of ReportPayload (stage-payloads.ts) that extends it. */
export interface ComparableReport {
  fileHash: string;
  path: string;
  runId: string;
  verdict: OverallVerdict;
  inventory: Inventory;
  klv: KlvPidSummary[];
  checks: Array<{ checkId: string; title: string; status: string; summary: CheckSummary }>;
}

/** One figure of both files. */
export interface ComparedFigure<T> {
  a: T;
  b: T;
  changed: boolean;
}

export interface ComparedFile {
  path: string;
  fileHash: string;
  runId: string;
  verdict: OverallVerdict;
}

export interface ComparedPidSide {
  role: string;
  streamType: number | null;
  packets: number;
  bitrate: number | null;
  pesCount: number;
  pcrCount: number;
  continuityErrors: number;
  transportErrors: number;
}

export interface ComparedKlvSide {
  carriage: string;
  standards: string[];
  packets: number;
  packetsWithPts: number;
  checksumFailures: number;
  itemsSeen: number;
}

export interface ComparedCheckSide {
  verdict: Verdict | 'check failed';
  violations: number;
  points: number;
  value: ValueStatistics | null;
}

/** A row present in either file: its side in each (null where the file has none). */
export interface ComparedRow<K, S> {
  key: K;
  a: S | null;
  b: S | null;
  changed: boolean;
}

export interface ReportComparison {
  a: ComparedFile;
  b: ComparedFile;
  verdict: ComparedFigure<OverallVerdict>;
  totals: {
    packets: ComparedFigure<number>;
    bytes: ComparedFigure<number>;
    durationSeconds: ComparedFigure<number | null>;
    bitrate: ComparedFigure<number | null>;
    programs: ComparedFigure<number>;
  };
  pids: Array<ComparedRow<number, ComparedPidSide>>;
  klv: Array<ComparedRow<number, ComparedKlvSide>>;
  /** In the order of file a's report, then the checks only b ran. */
  checks: Array<ComparedRow<string, ComparedCheckSide> & { title: string }>;
}

function figure<T>(a: T, b: T): ComparedFigure<T> {
  return { a, b, changed: JSON.stringify(a) !== JSON.stringify(b) };
}

/** Rows of both lists joined by key: a's order, then what only b has. */
function joined<T, K, S>(a: readonly T[], b: readonly T[], keyOf: (item: T) => K, sideOf: (item: T) => S): Array<ComparedRow<K, S>> {
  const keys = [...a.map(keyOf), ...b.map(keyOf).filter((key) => !a.some((item) => keyOf(item) === key))];
  return keys.map((key) => {
    const inA = a.find((item) => keyOf(item) === key);
    const inB = b.find((item) => keyOf(item) === key);
    const sideA = inA === undefined ? null : sideOf(inA);
    const sideB = inB === undefined ? null : sideOf(inB);
    return { key, a: sideA, b: sideB, changed: JSON.stringify(sideA) !== JSON.stringify(sideB) };
  });
}

function checkSide(check: { status: string; summary: CheckSummary }): ComparedCheckSide {
  return {
    verdict: check.status === 'failed' ? 'check failed' : check.summary.verdict,
    violations: check.summary.violations,
    points: check.summary.points,
    value: check.summary.value,
  };
}

export function compareReports(a: ComparableReport, b: ComparableReport): ReportComparison {
  const fileOf = (report: ComparableReport): ComparedFile => ({ path: report.path, fileHash: report.fileHash, runId: report.runId, verdict: report.verdict });
  const titles = new Map([...b.checks, ...a.checks].map((check) => [check.checkId, check.title]));
  return {
    a: fileOf(a),
    b: fileOf(b),
    verdict: figure(a.verdict, b.verdict),
    totals: {
      packets: figure(a.inventory.totalPackets, b.inventory.totalPackets),
      bytes: figure(a.inventory.totalBytes, b.inventory.totalBytes),
      durationSeconds: figure(a.inventory.durationSeconds, b.inventory.durationSeconds),
      bitrate: figure(a.inventory.bitrate, b.inventory.bitrate),
      programs: figure(a.inventory.programs.length, b.inventory.programs.length),
    },
    pids: joined(
      a.inventory.pids,
      b.inventory.pids,
      (pid) => pid.pid,
      (pid): ComparedPidSide => ({
        role: pid.role,
        streamType: pid.streamType,
        packets: pid.packets,
        bitrate: pid.bitrate,
        pesCount: pid.pesCount,
        pcrCount: pid.pcrCount,
        continuityErrors: pid.continuityErrors,
        transportErrors: pid.transportErrors,
      }),
    ),
    klv: joined(
      a.klv,
      b.klv,
      (pid) => pid.pid,
      (pid): ComparedKlvSide => ({
        carriage: pid.carriage,
        standards: pid.standards,
        packets: pid.packets,
        packetsWithPts: pid.packetsWithPts,
        checksumFailures: pid.checksumFailures,
        itemsSeen: pid.itemsSeen.length,
      }),
    ),
    checks: joined(a.checks, b.checks, (check) => check.checkId, checkSide).map((row) => ({ ...row, title: titles.get(row.key) ?? row.key })),
  };
}
