/** Whether a process of this id is running (signal 0: checked, nothing sent). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
