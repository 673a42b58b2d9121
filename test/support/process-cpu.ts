import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let clockTicks: number | undefined;

function ticksToMs(ticks: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString());
  return (ticks * 1000) / clockTicks;
}

/** The fields of /proc/<pid>/stat after the command name; undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far (user and system), in ms, from /proc (10 ms resolution); 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? ticksToMs(Number(fields[11]) + Number(fields[12])) : 0;
}

/**
 * CPU time (ms, to the nanosecond) the threads of a process alive now have used: the main thread, libuv's pool and
 * V8's compiler and garbage-collection threads, as utime+stime count them, but from each thread's
 * /proc/<pid>/task/<tid>/schedstat, whose first field is the exact nanoseconds it has run, where /proc/<pid>/stat
 * advances by 10 ms ticks. Threads that ended no longer count (Node's stay for the process's life); 0 once it is gone.
 */
export function threadsCpuMsOf(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let nanoseconds = 0;
  for (const task of tasks) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return nanoseconds / 1e6;
}

/**
 * CPU time (ms) of a process and all its children so far, those that ended included (a PostgreSQL postmaster and its
 * backends, writers and autovacuum workers): the process's own time, the time of its ended children (which /proc
 * adds to the parent once it has reaped them) and that of the children alive now.
 */
export function treeCpuMs(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  let total = ticksToMs(Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = statFields(Number(entry));
    if (child && Number(child[1]) === pid) total += ticksToMs(Number(child[11]) + Number(child[12]));
  }
  return total;
}
