/**
 * Two reports side by side: verdicts and totals, every check (verdict,
 * violations, worst value), every PID and KLV PID, one column per file.
 * Rows that differ are marked at their left edge, and B's cells where they
 * differ from A's; a check's name opens its check page on either file.
 */
import type { ComparedFigure, ReportComparison } from '@klvscope/core/browser';
import { formatBitrate } from '../../shared/bitrate-format.js';
import { formatQuantity } from '../../shared/quantity-format.js';
import { routeHash } from '../dashboard-route.js';
import { formatWorstValue } from '../report/worst-value.js';
import { ComparedCells } from './compared-cells.js';
import { ComparedPidTable } from './compared-pid-table.js';

function FigureRow<T>({ name, figure, show }: { name: string; figure: ComparedFigure<T>; show: (value: T) => string }) {
  return (
    <tr class={`figure ${figure.changed ? 'changed' : ''}`} data-figure={name}>
      <td>{name}</td>
      <ComparedCells a={figure.a} b={figure.b} show={show} />
    </tr>
  );
}

const bitrateText = (bitrate: number | null) => (bitrate === null ? 'unknown' : formatBitrate(bitrate));
const count = (value: number) => value.toLocaleString('en-US');

export function ComparisonView({ comparison }: { comparison: ReportComparison }) {
  const { a, b } = comparison;
  const changedChecks = comparison.checks.filter((row) => row.changed).length;
  return (
    <>
      <section class="panel compare-files">
        <h2>
          A <span class={`overall-verdict verdict-${a.verdict}`}>{a.verdict.toUpperCase()}</span> · B <span class={`overall-verdict verdict-${b.verdict}`}>{b.verdict.toUpperCase()}</span>
        </h2>
        <p>
          A: <a href={routeHash({ page: 'report', filePath: a.path })}><code class="path-a">{a.path}</code></a>
          <br />
          B: <a href={routeHash({ page: 'report', filePath: b.path })}><code class="path-b">{b.path}</code></a>
        </p>
        <p class="changed-count">
          {changedChecks === 0 ? 'Every check gives the same figures for both files.' : `${changedChecks} of ${comparison.checks.length} checks give different figures.`}
        </p>
        <table class="data compare-totals">
          <thead>
            <tr>
              <th />
              <th class="number">A</th>
              <th class="number">B</th>
            </tr>
          </thead>
          <tbody>
            <FigureRow name="packets" figure={comparison.totals.packets} show={count} />
            <FigureRow name="bytes" figure={comparison.totals.bytes} show={count} />
            <FigureRow name="duration (PCR)" figure={comparison.totals.durationSeconds} show={(seconds) => formatQuantity(seconds, 's')} />
            <FigureRow name="bitrate" figure={comparison.totals.bitrate} show={bitrateText} />
            <FigureRow name="programs" figure={comparison.totals.programs} show={count} />
          </tbody>
        </table>
      </section>
      <section class="panel compare-checks">
        <h2>Checks</h2>
        <table class="data">
          <thead>
            <tr>
              <th>Check</th>
              <th class="number">A verdict</th>
              <th class="number">B verdict</th>
              <th class="number">A violations</th>
              <th class="number">B violations</th>
              <th class="number">A worst</th>
              <th class="number">B worst</th>
            </tr>
          </thead>
          <tbody>
            {comparison.checks.map((row) => (
              <tr class={`compared-check ${row.changed ? 'changed' : ''}`} data-check-id={row.key}>
                <td>
                  {row.title} <code class="check-id">{row.key}</code>{' '}
                  <a class="open-a" href={routeHash({ page: 'check', filePath: a.path, checkId: row.key })}>A</a>{' '}
                  <a class="open-b" href={routeHash({ page: 'check', filePath: b.path, checkId: row.key })}>B</a>
                </td>
                <ComparedCells a={row.a} b={row.b} show={(side) => side.verdict} />
                <ComparedCells a={row.a} b={row.b} show={(side) => count(side.violations)} />
                <ComparedCells a={row.a} b={row.b} show={(side) => formatWorstValue(side.value)} />
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="panel compare-pids">
        <h2>PIDs</h2>
        <ComparedPidTable
          rows={comparison.pids}
          rowClass="compared-pid"
          columns={[
            { name: 'type', show: (side) => side.role },
            { name: 'packets', show: (side) => count(side.packets) },
            { name: 'bitrate', show: (side) => bitrateText(side.bitrate) },
            { name: 'continuity errors', show: (side) => count(side.continuityErrors) },
          ]}
        />
        <h2>KLV</h2>
        {comparison.klv.length === 0 ? (
          <p class="empty">Neither file carries KLV.</p>
        ) : (
          <ComparedPidTable
            rows={comparison.klv}
            rowClass="compared-klv"
            columns={[
              { name: 'carriage', show: (side) => side.carriage },
              { name: 'packets', show: (side) => count(side.packets) },
              { name: 'checksum failures', show: (side) => count(side.checksumFailures) },
            ]}
          />
        )}
      </section>
    </>
  );
}
