/**
 * The kernel's count of datagrams it dropped on one UDP socket because the
 * receive buffer was full: the `drops` column of /proc/net/udp (Linux 2.6.27
 * and later), found by the socket's inode. Elsewhere, or when /proc is not
 * readable, every function answers "unknown" instead of failing: the counter
 * is a bonus, not something a live source may fail over.
 */
import { readFile } from 'node:fs/promises';

const PROC_NET_UDP = '/proc/net/udp';
const LOCAL_ADDRESS_COLUMN = 1;
const INODE_COLUMN = 9;
const DROPS_COLUMN = 12;

async function socketTable(): Promise<string[][]> {
  try {
    const text = await readFile(PROC_NET_UDP, 'latin1');
    return text
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((columns) => columns.length > DROPS_COLUMN);
  } catch {
    return [];
  }
}

/** Inodes of the UDP sockets bound to `port` on any address; empty when unknown. */
export async function udpSocketInodes(port: number): Promise<Set<string>> {
  const portHex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const table = await socketTable();
  return new Set(table.filter((columns) => columns[LOCAL_ADDRESS_COLUMN].endsWith(portHex)).map((columns) => columns[INODE_COLUMN]));
}

/** The drop counter of the UDP socket with this inode, or null when it cannot be read. */
export async function udpSocketDrops(inode: string): Promise<number | null> {
  const row = (await socketTable()).find((columns) => columns[INODE_COLUMN] === inode);
  const drops = row ? Number(row[DROPS_COLUMN]) : NaN;
  return Number.isSafeInteger(drops) ? drops : null;
}
