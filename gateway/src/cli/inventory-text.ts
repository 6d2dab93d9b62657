/** The inventory as a terminal table (`klvscope inspect` without --json). */
import type { Descriptor, Inventory } from '@klvscope/core';

const hexPid = (pid: number): string => `0x${pid.toString(16).toUpperCase().padStart(4, '0')}`;
const hexByte = (value: number): string => `0x${value.toString(16).toUpperCase().padStart(2, '0')}`;
/** 1234567 -> '1,234,567'. Not toLocaleString: loading ICU's number formats costs ~13 ms, a tenth of a cached inspection. */
export function count(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

export function formatBitrate(bitsPerSecond: number | null): string {
  if (bitsPerSecond === null) return '-';
  if (bitsPerSecond >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(3)} Mb/s`;
  if (bitsPerSecond >= 1e3) return `${(bitsPerSecond / 1e3).toFixed(1)} kb/s`;
  return `${bitsPerSecond.toFixed(0)} b/s`;
}

function describe(d: Descriptor): string {
  if (d.fields) {
    const fields = Object.entries(d.fields).map(([k, v]) => `${k}=${String(v)}`).join(' ');
    return `${d.name} (${fields})`;
  }
  return `${d.name} [tag ${hexByte(d.tag)}] ${d.dataHex}`;
}

function table(rows: string[][], rightAligned: Set<number>): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (rightAligned.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd());
}

export function formatInventory(path: string, inv: Inventory): string {
  const lines: string[] = [];
  lines.push(`File        ${path}`);
  lines.push(`Size        ${count(inv.totalBytes)} bytes, ${count(inv.totalPackets)} packets of ${inv.packetSize ?? '?'} bytes`);
  const duration = inv.durationSeconds === null ? 'unknown (no PCR)' : `${inv.durationSeconds.toFixed(3)} s`;
  lines.push(`Duration    ${duration}    Bitrate ${formatBitrate(inv.bitrate)}`);
  if (inv.transportStreamId !== null) lines.push(`TS id       ${inv.transportStreamId}`);
  lines.push('');
  if (inv.programs.length === 0) lines.push('No program found (no valid PAT/PMT).');
  for (const program of inv.programs) {
    const pcr = program.pcrPid === null ? 'none' : hexPid(program.pcrPid);
    lines.push(`Program ${program.programNumber}   PMT ${hexPid(program.pmtPid)}   PCR ${pcr}`);
    for (const d of program.descriptors) lines.push(`    ${describe(d)}`);
    for (const pid of program.streams) {
      const entry = inv.pids.find((p) => p.pid === pid);
      if (!entry) continue;
      const type = entry.streamType === null ? '' : ` (${hexByte(entry.streamType)})`;
      const absent = entry.packets === 0 ? '   [declared, no packets]' : '';
      lines.push(`  ${hexPid(pid)}  ${entry.streamTypeName ?? '?'}${type}${absent}`);
      for (const d of entry.descriptors) lines.push(`      ${describe(d)}`);
    }
  }
  lines.push('');
  const rows = [['PID', 'Role', 'Packets', 'Bytes', 'Bitrate', 'PES', 'w/PTS', 'w/DTS', 'PCR', 'CC err', 'TEI']];
  for (const p of inv.pids) {
    rows.push([
      hexPid(p.pid),
      p.role,
      count(p.packets),
      count(p.bytes),
      formatBitrate(p.bitrate),
      count(p.pesCount),
      count(p.pesWithPts),
      count(p.pesWithDts),
      count(p.pcrCount),
      count(p.continuityErrors),
      count(p.transportErrors),
    ]);
  }
  lines.push(...table(rows, new Set([2, 3, 4, 5, 6, 7, 8, 9, 10])));
  lines.push('');
  const errors = Object.entries(inv.errorCounts);
  lines.push(errors.length === 0 ? 'Errors      none' : `Errors      ${errors.map(([type, n]) => `${type} ${count(n ?? 0)}`).join(', ')}`);
  return lines.join('\n');
}
