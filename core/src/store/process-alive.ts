/** Whether a process id names a live process on this machine (lock and temporary-file owners). */
export function isProcessAlive(pid: number): boolean {
  // kill(0, …) and negative ids address process groups, never one process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
