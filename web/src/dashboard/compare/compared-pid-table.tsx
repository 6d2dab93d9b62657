/**
 * A table of rows keyed by PID, compared: the PID, then for each figure
 * its A and B columns (ComparedCells), a changed row marked. The PIDs and
 * the KLV PIDs of the compare page are two of these.
 */
import type { ComparedRow } from '@klvscope/core/browser';
import { pidLabel } from '../report/pid-label.js';
import { ComparedCells } from './compared-cells.js';

export interface ComparedFigureColumn<S> {
  name: string;
  show: (side: S) => string;
}

export function ComparedPidTable<S>({ rows, rowClass, columns }: { rows: ReadonlyArray<ComparedRow<number, S>>; rowClass: string; columns: ReadonlyArray<ComparedFigureColumn<S>> }) {
  return (
    <table class="data">
      <thead>
        <tr>
          <th>PID</th>
          {columns.flatMap((column) => [<th class="number">A {column.name}</th>, <th class="number">B {column.name}</th>])}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr class={`${rowClass} ${row.changed ? 'changed' : ''}`} data-pid={row.key}>
            <td>{pidLabel(row.key)}</td>
            {columns.map((column) => (
              <ComparedCells a={row.a} b={row.b} show={column.show} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
