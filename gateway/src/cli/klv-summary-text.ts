/** The KLV section of `klvscope inspect` as text. */
import type { KlvPidSummary } from '@klvscope/core';

/** 1,2,3,5,7,8 -> '1-3, 5, 7-8'. */
export function tagRanges(tags: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < tags.length; i++) {
    let j = i;
    while (j + 1 < tags.length && tags[j + 1] === tags[j] + 1) j++;
    parts.push(j > i ? `${tags[i]}-${tags[j]}` : `${tags[i]}`);
    i = j;
  }
  return parts.join(', ');
}

const iso = (micros: number | null): string => (micros === null ? '?' : new Date(micros / 1000).toISOString());

export function formatKlvSummary(summaries: readonly KlvPidSummary[]): string {
  if (summaries.length === 0) return 'KLV         none';
  const lines = ['KLV'];
  for (const s of summaries) {
    const pid = s.pid < 0 ? 'raw stream' : `PID 0x${s.pid.toString(16).toUpperCase().padStart(4, '0')}`;
    const versions = s.versions.length ? ` version ${s.versions.join(', ')}` : '';
    lines.push(`  ${pid}  ${s.carriage}  ${s.packets} packets (${s.packetsWithPts} with PTS)  ${s.standards.join(', ') || 'undecoded'}${versions}  checksum failures ${s.checksumFailures}`);
    if (s.itemsSeen.length) lines.push(`      items seen: ${tagRanges(s.itemsSeen)}`);
    if (s.firstTimestampMicros !== null) lines.push(`      time stamps ${iso(s.firstTimestampMicros)} -> ${iso(s.lastTimestampMicros)}`);
    const problems = Object.entries(s.problems);
    lines.push(`      problems: ${problems.length ? problems.map(([type, n]) => `${type} ${n}`).join(', ') : 'none'}`);
  }
  return lines.join('\n');
}
