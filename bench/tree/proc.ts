// CPU time and resident memory of a process and all its descendants, read from /proc (Linux).
import fs from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const PAGE_KB = 4;

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined; // the process has exited
  }
}

/** pid and its descendants, from each task's children list. */
export function processTree(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    for (const task of fs.existsSync(`/proc/${p}/task`) ? fs.readdirSync(`/proc/${p}/task`) : []) {
      const children = readText(`/proc/${p}/task/${task}/children`)?.trim();
      if (children) queue.push(...children.split(/\s+/).map(Number));
    }
  }
  return out;
}

/** User + system CPU seconds of one process (its own threads, not its reaped children). */
export function cpuSeconds(pid: number): number {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // The command name may contain spaces; fields after it are space-separated (utime is field 14).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export function rssBytes(pid: number): number {
  const statm = readText(`/proc/${pid}/statm`);
  return statm ? Number(statm.split(" ")[1]) * PAGE_KB * 1024 : 0;
}

export interface ProcessUsage {
  cpuSeconds: number;
  peakRssBytes: number;
  samples: number;
}

/**
 * Samples a process tree every `intervalMs` until stop(): CPU used since start() and the peak of
 * the tree's summed resident memory.
 */
export function sampleProcessTree(pid: number, intervalMs = 50): { stop(): ProcessUsage } {
  const cpuAtStart = new Map<number, number>();
  const cpuLatest = new Map<number, number>();
  for (const p of processTree(pid)) cpuAtStart.set(p, cpuSeconds(p));
  let peakRssBytes = 0;
  let samples = 0;
  const sample = () => {
    let rss = 0;
    for (const p of processTree(pid)) {
      rss += rssBytes(p);
      const cpu = cpuSeconds(p);
      if (cpu > 0) cpuLatest.set(p, cpu);
    }
    peakRssBytes = Math.max(peakRssBytes, rss);
    samples++;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let cpu = 0;
      for (const [p, latest] of cpuLatest) cpu += latest - (cpuAtStart.get(p) ?? 0);
      return { cpuSeconds: cpu, peakRssBytes, samples };
    },
  };
}
