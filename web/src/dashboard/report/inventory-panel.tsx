/** What the file holds (the `analyze` stage's inventory): its programs, and its PIDs with stream types, bitrates, counts and errors. */
import type { Inventory } from '@klvscope/core/browser';
import { formatBitrate } from '../../shared/bitrate-format.js';
import { formatByteSize } from '../files/byte-size.js';
import { useRef } from 'preact/hooks';
import { CsvExportButton } from './csv-export-button.js';
import { rowsOfTable } from './csv-text.js';
import { pidLabel } from './pid-label.js';
import type { ReportCheck } from './report-api.js';

/** The TR 101 290 check: it judges timing too (PCR, PTS, PAT and PMT repetition), which no packet's parse reports. */
const TR_101_290_CHECK = 'mpegts-errors';

export function InventoryPanel({ inventory, checks, filePath }: { inventory: Inventory; checks: readonly ReportCheck[]; filePath: string }) {
  const programsTable = useRef<HTMLTableElement>(null);
  const pidsTable = useRef<HTMLTableElement>(null);
  const tr101290 = checks.find((check) => check.checkId === TR_101_290_CHECK);
  const errors = Object.entries(inventory.errorCounts).filter(([, count]) => (count ?? 0) > 0);
  return (
    <section class="panel inventory">
      <h2>Inventory</h2>
      <p class="inventory-totals">
        {inventory.totalPackets} packets of {inventory.packetSize ?? '?'} bytes · {formatByteSize(inventory.totalBytes)} ·{' '}
        {inventory.durationSeconds === null ? 'duration unknown (no PCR)' : `${inventory.durationSeconds.toFixed(3)} s`} · {inventory.bitrate === null ? 'bitrate unknown' : formatBitrate(inventory.bitrate)}
        {inventory.transportStreamId !== null && ` · transport_stream_id ${inventory.transportStreamId}`}
      </p>
      <h3>
        Programs <CsvExportButton filePath={filePath} table="programs" rows={() => rowsOfTable(programsTable.current!)} />
      </h3>
      <table class="data programs" ref={programsTable}>
        <thead>
          <tr>
            <th class="number">Program</th>
            <th>PMT PID</th>
            <th>PCR PID</th>
            <th>Streams</th>
          </tr>
        </thead>
        <tbody>
          {inventory.programs.map((program) => (
            <tr class="program" data-program={program.programNumber}>
              <td class="number">{program.programNumber}</td>
              <td>{pidLabel(program.pmtPid)}</td>
              <td>{program.pcrPid === null ? '—' : pidLabel(program.pcrPid)}</td>
              <td>{program.streams.map((pid) => pidLabel(pid)).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>
        PIDs <CsvExportButton filePath={filePath} table="pids" rows={() => rowsOfTable(pidsTable.current!)} />
      </h3>
      <table class="data pids" ref={pidsTable}>
        <thead>
          <tr>
            <th>PID</th>
            <th>Type</th>
            <th class="number">Packets</th>
            <th class="number">Bitrate</th>
            <th class="number">PES</th>
            <th class="number">PCRs</th>
            <th class="number">Continuity errors</th>
            <th class="number">Transport errors</th>
            <th class="number">Scrambled</th>
          </tr>
        </thead>
        <tbody>
          {inventory.pids.map((pid) => (
            <tr class="pid" data-pid={pid.pid}>
              <td>{pidLabel(pid.pid)}</td>
              <td class="pid-type">
                {pid.role}
                {pid.streamType !== null && <code> (stream_type 0x{pid.streamType.toString(16).padStart(2, '0')})</code>}
              </td>
              <td class="number packets">{pid.packets}</td>
              <td class="number">{pid.bitrate === null ? '—' : formatBitrate(pid.bitrate)}</td>
              <td class="number">{pid.pesCount}</td>
              <td class="number">{pid.pcrCount}</td>
              <td class={`number ${pid.continuityErrors > 0 ? 'error' : ''}`}>{pid.continuityErrors}</td>
              <td class={`number ${pid.transportErrors > 0 ? 'error' : ''}`}>{pid.transportErrors}</td>
              <td class="number">{pid.scrambledPackets}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="error-counts">
        Errors found parsing the packets, by type:{' '}
        {errors.length === 0 ? 'none' : errors.map(([type, count]) => <span class="error-count" data-type={type}>{`${type} ${count}`}</span>)}
        {tr101290 !== undefined && tr101290.summary.violations > 0 && (
          <span class="tr101290-count" data-violations={tr101290.summary.violations}>
            {' '}
            · the TR 101 290 check ({TR_101_290_CHECK}) counts {tr101290.summary.violations} violations, timing included (see the worst problems above)
          </span>
        )}
      </p>
    </section>
  );
}
