/**
 * The problems a detection saw, by where they come from (the transport
 * stream or its KLV), their type and their severity, as `klvscope inspect`
 * counts them: so 48 warnings of a legacy EG 0104 set and 42 continuity
 * errors of a looping sender read as two lines, not as "90 KLV errors".
 */
import type { Observation, Severity } from '@klvscope/core';

export interface DetectionProblemCount {
  source: 'transport' | 'klv';
  type: string;
  severity: Severity;
  count: number;
}

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

export class DetectionProblemTally {
  private readonly counts = new Map<string, DetectionProblemCount>();

  observe(o: Observation): void {
    if (o.kind !== 'ts-error' && o.kind !== 'klv-error') return;
    const source = o.kind === 'ts-error' ? 'transport' : 'klv';
    const key = `${source} ${o.type} ${o.severity}`;
    const entry = this.counts.get(key);
    if (entry === undefined) this.counts.set(key, { source, type: o.type, severity: o.severity, count: 1 });
    else entry.count++;
  }

  /** Errors first, then warnings, then notes; the most frequent first within a severity. */
  build(): DetectionProblemCount[] {
    return [...this.counts.values()].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.count - a.count || a.type.localeCompare(b.type));
  }
}
