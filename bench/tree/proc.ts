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

/**
 * A process's proportional set size: its resident pages, each page it shares with other processes
 * (the node binary's code, shared libraries) counted as its share. Summed over a process tree, this is
 * the tree's memory; summed RSS counts every shared page once per process. Falls back to RSS where
 * the kernel has no smaps_rollup.
 */
export function pssBytes(pid: number): number {
  const rollup = readText(`/proc/${pid}/smaps_rollup`);
  const kb = rollup && /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
  return kb ? Number(kb) * 1024 : rssBytes(pid);
}

/** A short name for a process: its script's or executable's base name (e.g. "next-server", "extract-worker.mjs"). */
export function processName(pid: number): string {
  const args = (readText(`/proc/${pid}/cmdline`) ?? "").split("\0").filter(Boolean);
  const script = args.slice(1).find((a) => !a.startsWith("-") && /\.(m?js|ts|cjs)$/.test(a));
  const comm = readText(`/proc/${pid}/comm`)?.trim();
  return (script ?? comm ?? args[0] ?? String(pid)).split("/").at(-1)!;
}

export interface ProcessUsage {
  cpuSeconds: number;
  /** The CPU seconds by process name (the server, its extraction workers…), most first, and each name's peak memory (PSS, its processes summed). */
  byProcess: { name: string; cpuSeconds: number; peakPssMb: number }[];
  /** The peak of the tree's summed RSS (shared pages counted in each process that maps them). */
  peakRssBytes: number;
  /** The peak of the tree's summed PSS: its memory, shared pages split among its processes. */
  peakPssBytes: number;
  samples: number;
}

/**
 * Samples a process tree every `intervalMs` until stop(): CPU used since start() and the peak of
 * the tree's summed resident memory.
 */
export function sampleProcessTree(pid: number, intervalMs = 50): { stop(): ProcessUsage } {
  const cpuAtStart = new Map<number, number>();
  const cpuLatest = new Map<number, number>();
  const names = new Map<number, string>();
  for (const p of processTree(pid)) cpuAtStart.set(p, cpuSeconds(p));
  let peakRssBytes = 0;
  let peakPssBytes = 0;
  const peakByName = new Map<string, number>();
  let samples = 0;
  const sample = () => {
    let rss = 0;
    let pss = 0;
    const byName = new Map<string, number>();
    for (const p of processTree(pid)) {
      rss += rssBytes(p);
      const own = pssBytes(p);
      pss += own;
      const name = names.get(p) ?? processName(p);
      byName.set(name, (byName.get(name) ?? 0) + own);
      const cpu = cpuSeconds(p);
      if (cpu > 0) cpuLatest.set(p, cpu);
      if (!names.has(p)) names.set(p, processName(p));
    }
    peakRssBytes = Math.max(peakRssBytes, rss);
    peakPssBytes = Math.max(peakPssBytes, pss);
    for (const [name, bytes] of byName) peakByName.set(name, Math.max(peakByName.get(name) ?? 0, bytes));
    samples++;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let cpu = 0;
      const byName = new Map<string, number>();
      for (const [p, latest] of cpuLatest) {
        const used = latest - (cpuAtStart.get(p) ?? 0);
        cpu += used;
        const name = names.get(p) ?? String(p);
        byName.set(name, (byName.get(name) ?? 0) + used);
      }
      const byProcess = [...byName]
        .map(([name, cpuSeconds]) => ({ name, cpuSeconds, peakPssMb: Math.round((peakByName.get(name) ?? 0) / 2 ** 20) }))
        .filter((p) => p.cpuSeconds > 0)
        .sort((a, b) => b.cpuSeconds - a.cpuSeconds);
      return { cpuSeconds: cpu, byProcess, peakRssBytes, peakPssBytes, samples };
    },
  };
}
