/**
 * Runs of plain packets: what a worker thread finds in a chunk of a file so
 * that the demuxer on the main thread may count those packets without
 * visiting them (parallel inspection of one file, docs/parallel-inspection.md).
 *
 * A packet is plain when its bytes alone say it may be: the sync byte is
 * there (ISO 13818-1 2.4.3.2), and it is a null packet, or it has no
 * transport error, no unit start, no scrambling and payload only. A run is
 * consecutive plain packets at one stride in which each PID's
 * continuity_counter steps by one (2.4.3.3). Whether a PID carries a PES
 * that nobody collects, and whether its counter follows from the packets
 * before the run, the bytes cannot say: the demuxer checks that against its
 * own state when it reaches the run, and reads the packets one by one
 * whenever it does not hold. So a run is a hint: it can make the demuxer
 * faster, never make it see something else.
 */

/** The runs of one chunk; offsets are from the chunk's first byte. */
export interface PacketRuns {
  /** The packet stride the runs were found at (188, 192 or 204). */
  stride: number;
  /** Four numbers per run: offset of its first sync byte, packets, index of its first PID entry, PID entries. */
  runs: Int32Array;
  /** Four numbers per PID of a run: PID, packets, first continuity_counter, last continuity_counter. */
  pids: Int32Array;
}

/**
 * Finds the runs of plain packets in `bytes`. The function is self-contained
 * (no imports, no helpers, no closures): the worker threads run its text
 * (`scanPacketRuns.toString()`), so that it runs the same from the sources,
 * the built packages and the CLI's bundle.
 */
export function scanPacketRuns(bytes: Uint8Array): PacketRuns {
  const SYNC = 0x47;
  const NULL = 0x1fff;
  const PACKET = 188;
  // Fewer packets than this are not worth a run: the demuxer's own loop is as fast for them.
  const MIN_PACKETS = 4;
  const LOCK = 5;
  const length = bytes.length;
  const runs: number[] = [];
  const pids: number[] = [];
  // The PID's entry in the run being built, valid while its stamp is the run's number.
  const stamp = new Int32Array(0x2000);
  const entry = new Int32Array(0x2000);
  let runNumber = 0;
  // The run being built: its first packet (-1 while none), its packets, its first PID entry.
  let runStart: number;
  let runPackets: number;
  let runFirstPid: number;
  let stride = 0;
  let pos = 0;
  for (;;) {
    // Lock onto a grid: five sync bytes at one of the three strides (2.4.3.2, and 192/204-byte packets).
    let locked = -1;
    for (let p = pos; locked < 0 && p + (LOCK - 1) * 204 + PACKET <= length; p++) {
      if (bytes[p] !== SYNC) continue;
      for (const s of [188, 192, 204]) {
        let k = 1;
        while (k < LOCK && bytes[p + k * s] === SYNC) k++;
        if (k === LOCK) {
          locked = p;
          stride = s;
          break;
        }
      }
    }
    if (locked < 0) break;
    pos = locked;
    runNumber++;
    runStart = -1;
    runPackets = 0;
    runFirstPid = pids.length;
    while (pos + PACKET <= length && bytes[pos] === SYNC) {
      const b1 = bytes[pos + 1];
      const b3 = bytes[pos + 3];
      const pid = ((b1 & 0x1f) << 8) | bytes[pos + 2];
      const plain = pid === NULL || ((b1 & 0xc0) === 0 && (b3 & 0xf0) === 0x10);
      let fits = plain;
      if (plain && runStart >= 0 && pid !== NULL && stamp[pid] === runNumber && ((pids[entry[pid] + 3] + 1) & 0x0f) !== (b3 & 0x0f)) fits = false;
      if (!fits && runStart >= 0) {
        // End the run before this packet.
        if (runPackets >= MIN_PACKETS) runs.push(runStart, runPackets, runFirstPid / 4, (pids.length - runFirstPid) / 4);
        else pids.length = runFirstPid;
        runNumber++;
        runStart = -1;
        runPackets = 0;
        runFirstPid = pids.length;
      }
      if (plain) {
        if (runStart < 0) runStart = pos;
        runPackets++;
        if (stamp[pid] !== runNumber) {
          stamp[pid] = runNumber;
          entry[pid] = pids.length;
          pids.push(pid, 1, b3 & 0x0f, b3 & 0x0f);
        } else {
          pids[entry[pid] + 1]++;
          pids[entry[pid] + 3] = b3 & 0x0f;
        }
      }
      pos += stride;
    }
    if (runStart >= 0 && runPackets >= MIN_PACKETS) runs.push(runStart, runPackets, runFirstPid / 4, (pids.length - runFirstPid) / 4);
    else pids.length = runFirstPid;
    // The grid broke (a damaged or missing sync byte): look for the next one.
    if (pos + PACKET > length) break;
    pos++;
  }
  return { stride, runs: Int32Array.from(runs), pids: Int32Array.from(pids) };
}
