/**
 * The live session's findings, newest first: when (the arrival of the bytes
 * that revealed it, and the stream time), the check, the severity, the
 * message. Each row carries its check and sequence number for tests.
 */
import type { LiveFinding } from './live-records.js';

/** Rows drawn; the session keeps all of them (GET /sessions/{id}/findings). */
const MAX_ROWS = 300;

export function LiveFindingsList({ findings, total }: { findings: readonly LiveFinding[]; total: number }) {
  const newestFirst = findings.slice(-MAX_ROWS).reverse();
  return (
    <section class="panel live-findings" aria-label="findings">
      <h2>
        Findings <span class="count" data-field="findingCount">{total}</span>
      </h2>
      {newestFirst.length === 0 ? (
        <p class="placeholder">No finding yet.</p>
      ) : (
        <div class="findings-scroll">
          <table class="data">
            <thead>
              <tr>
                <th>received</th>
                <th class="number">stream time</th>
                <th>check</th>
                <th>severity</th>
                <th class="number">PID</th>
                <th>message</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((finding) => (
                <tr key={finding.seq} class="finding" data-severity={finding.severity} data-seq={finding.seq} data-check={finding.checkId} data-packet={finding.packetIndex}>
                  <td>{formatClock(finding.receivedAt ?? finding.emittedAt)}</td>
                  <td class="number">{finding.t === null ? '—' : `${finding.t.toFixed(3)} s`}</td>
                  <td>{finding.checkId}</td>
                  <td>{finding.severity}</td>
                  <td class="number">{finding.pid < 0 ? '—' : finding.pid}</td>
                  <td class="message">{finding.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Local time of day with milliseconds: findings come many a second. */
function formatClock(epochMs: number): string {
  const date = new Date(epochMs);
  return `${date.toLocaleTimeString(undefined, { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
