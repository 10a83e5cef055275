/**
 * Whether a process named by its pid in the engine directory (owner.pid, a journal's name, a
 * takeover claim) is still the process that wrote it. A pid alone is not enough: once that
 * process is gone the system may give its pid to another one (pids wrap, a container restarts
 * with the same pids), which then passed for it for as long as it ran — a dead owner's directory
 * was never taken over, a dead writer's journal was replayed at every start. Where /proc tells
 * when a process started (Linux), a process that started after the record was written is not
 * the one that wrote it.
 */
import { readFileSync } from 'node:fs';

/** Linux reports start times in USER_HZ ticks, 100 per second on every architecture. */
const TICKS_PER_SECOND = 100;
/** /proc/stat's boot time has one-second precision, and the clock may be stepped: start times get this slack. */
const START_SLACK_MS = 2000;

let boot: number | undefined | null = null;

function bootMs(): number | undefined {
  if (boot === null) {
    try {
      const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      boot = m ? Number(m[1]) * 1000 : undefined;
    } catch {
      boot = undefined;
    }
  }
  return boot;
}

/** When process `pid` started, in ms since the epoch; undefined when it is gone or the system does not say. */
export function processStartMs(pid: number): number | undefined {
  const bootAt = bootMs();
  if (bootAt === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2, the command name, is in parentheses and may itself hold spaces and parentheses:
  // fields are counted after the last ')'. What follows is field 3; the start time is field 22.
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isFinite(ticks) ? bootAt + (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/** Whether a process with this pid exists (one of another user counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that had `pid` when it wrote something at `writtenMs` still runs: a
 * process with that pid exists and did not start after that moment.
 */
export function writerAlive(pid: number, writtenMs: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return false;
  const started = processStartMs(pid);
  return started === undefined || !Number.isFinite(writtenMs) || started <= writtenMs + START_SLACK_MS;
}
