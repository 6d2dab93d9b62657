/**
 * The PSI tree of a file (the `analyze` stage's inventory): the PAT, each
 * program's PMT with its PCR PID and program descriptors, and each stream
 * with its stream_type and descriptors (ISO 13818-1 2.4.4.3 PAT,
 * 2.4.4.8 PMT, 2.6 descriptors). A descriptor klvscope decodes shows its
 * fields; the others their bytes in hex.
 */
import type { Inventory, InventoryPid } from '@klvscope/core/browser';
import { CsvExportButton } from './csv-export-button.js';
import { pidLabel } from './pid-label.js';

type Descriptor = InventoryPid['descriptors'][number];

/** A descriptor in one cell: its name and tag, then its fields or its bytes. */
function descriptorText(descriptor: Descriptor): string {
  const head = `${descriptor.name} (tag 0x${descriptor.tag.toString(16).padStart(2, '0')})`;
  if (descriptor.fields !== undefined) return `${head}: ${Object.entries(descriptor.fields).map(([name, value]) => `${name} ${String(value)}`).join(', ')}`;
  return descriptor.dataHex === '' ? head : `${head}: ${descriptor.dataHex}`;
}

/** The tree flattened: one row per stream of each program, with the program's PIDs and descriptors beside it. */
function psiRows(inventory: Inventory): string[][] {
  const pids = new Map(inventory.pids.map((pid) => [pid.pid, pid]));
  const rows = [['Program', 'PMT PID', 'PCR PID', 'Program descriptors', 'Stream PID', 'Type', 'stream_type', 'Stream descriptors']];
  for (const program of inventory.programs) {
    const programCells = [String(program.programNumber), pidLabel(program.pmtPid), program.pcrPid === null ? 'none' : pidLabel(program.pcrPid), program.descriptors.map(descriptorText).join('; ')];
    for (const pid of program.streams) {
      const stream = pids.get(pid);
      const streamType = stream?.streamType ?? null;
      rows.push([...programCells, pidLabel(pid), stream?.role ?? 'not carried', streamType === null ? '' : `0x${streamType.toString(16).padStart(2, '0')}`, (stream?.descriptors ?? []).map(descriptorText).join('; ')]);
    }
  }
  return rows;
}

function DescriptorList({ descriptors }: { descriptors: readonly Descriptor[] }) {
  if (descriptors.length === 0) return null;
  return (
    <ul class="psi-descriptors">
      {descriptors.map((descriptor) => (
        <li class="psi-descriptor" data-tag={descriptor.tag}>
          <span class="descriptor-name">{descriptor.name}</span> <code class="descriptor-tag">(tag 0x{descriptor.tag.toString(16).padStart(2, '0')})</code>
          {descriptor.fields !== undefined ? (
            <span class="descriptor-fields">
              {': '}
              {Object.entries(descriptor.fields)
                .map(([name, value]) => `${name} ${String(value)}`)
                .join(', ')}
            </span>
          ) : (
            descriptor.dataHex !== '' && <code class="descriptor-hex">: {descriptor.dataHex}</code>
          )}
        </li>
      ))}
    </ul>
  );
}

export function PsiTreePanel({ inventory, filePath }: { inventory: Inventory; filePath: string }) {
  const pids = new Map(inventory.pids.map((pid) => [pid.pid, pid]));
  return (
    <section class="panel psi-tree">
      <h2>
        PSI tree <CsvExportButton filePath={filePath} table="psi" rows={() => psiRows(inventory)} />
      </h2>
      <ul class="psi-root">
        <li>
          <strong>PAT</strong> on {pidLabel(0)}
          {inventory.transportStreamId !== null && ` · transport_stream_id ${inventory.transportStreamId}`}
          {inventory.programs.length === 0 ? (
            <p class="empty">No program: the file has no PAT klvscope could read.</p>
          ) : (
            <ul>
              {inventory.programs.map((program) => (
                <li class="psi-program" data-program={program.programNumber}>
                  <strong>program {program.programNumber}</strong> → PMT on {pidLabel(program.pmtPid)} · PCR on {program.pcrPid === null ? 'none' : pidLabel(program.pcrPid)}
                  <DescriptorList descriptors={program.descriptors} />
                  <ul>
                    {program.streams.map((pid) => {
                      const stream = pids.get(pid);
                      return (
                        <li class="psi-stream" data-pid={pid}>
                          {pidLabel(pid)} {stream?.role ?? 'not carried'}
                          {stream?.streamType !== null && stream?.streamType !== undefined && <code> (stream_type 0x{stream.streamType.toString(16).padStart(2, '0')})</code>}
                          <DescriptorList descriptors={stream?.descriptors ?? []} />
                        </li>
                      );
                    })}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </li>
      </ul>
    </section>
  );
}
