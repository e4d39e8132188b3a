// Whether an OS process still exists: signal 0 checks without delivering anything. EPERM means it exists
// but belongs to someone else, which still counts as alive (fail closed).

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
