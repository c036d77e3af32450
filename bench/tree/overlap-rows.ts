// The tree rows on the overlapping web (issue 57): the same sizes as the tree rows, against fakes whose search
// results are drawn from a few dozen long pages (test/fakes/web-overlap.ts), so that the tree's queries share
// most of their results as on the real web; each size followed by the lean peer's runs on the same fakes.
import { formatWebsMarkdown, peerRow, type PeerRow } from "../peer/report";
import { runTreePeer, type PeerResult } from "../peer/tree-peer";
import type { BoundLatencies, BoundLimits } from "./bound";
import type { BenchDatabase } from "./database";
import { startFakesProcess } from "./fakes-process";
import { benchPrompt, runTree, type TreeRunResult } from "./run-tree";
import { WARM_UP } from "./warm-up";

export interface OverlapRowsOptions {
  configs: { depth: number; breadth: number }[];
  databases: readonly BenchDatabase[];
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  /** Pages of the overlapping web. */
  pages: number;
  peerRuns: number;
  peerConcurrency: number;
  /** Whether the peer's code still needs its warm-up in this process (the distinct web's rows did it). */
  warmPeer: boolean;
  serverNodeArgs: string[];
  profileDir?: string;
  log: (line: string) => void;
}

export interface OverlapRows {
  pages: number;
  tree: TreeRunResult[];
  peer: PeerRow[];
}

export async function runOverlapRows(o: OverlapRowsOptions): Promise<OverlapRows> {
  const tree: TreeRunResult[] = [];
  const peer: PeerRow[] = [];
  const fakes = await startFakesProcess(o.latencies, { overlapWeb: o.pages });
  try {
    const peerWorld = { concurrency: o.peerConcurrency, llmBaseUrl: fakes.env.OPENAI_BASE_URL, searxngUrl: fakes.env.SEARXNG_URL };
    if (o.warmPeer && o.peerRuns > 0) {
      for (let i = 0; i < WARM_UP.researches; i++) await runTreePeer({ ...peerWorld, prompt: `Warm-up run ${i + 1}`, depth: WARM_UP.depth, breadth: WARM_UP.breadth });
    }
    for (const { depth, breadth } of o.configs) {
      for (const database of o.databases) {
        o.log(`tree ${depth}x${breadth} ${database} on the overlapping web (${o.pages} pages): running`);
        const result = await runTree({ depth, breadth, database, latencies: o.latencies, limits: o.limits, contextTokenBudget: o.contextTokenBudget, fakes, profileDir: o.profileDir, serverNodeArgs: o.serverNodeArgs });
        o.log(
          `tree ${depth}x${breadth} ${database} on the overlapping web: ${(result.wallMs / 1000).toFixed(2)} s wall, ratio ${result.ratio.toFixed(3)}, ` +
            `${result.llm.calls} LLM calls, ${result.llm.promptTokens} prompt tokens, ${result.pages.distinctUrls} distinct pages, ` +
            `CPU ${((result.server.cpuSeconds * 1000) / Math.max(1, result.llm.calls)).toFixed(1)} ms per LLM call (${result.server.byProcess.map((p) => `${p.name} ${p.cpuSeconds.toFixed(2)} s`).join(", ")}), ` +
            `planted facts ${result.quality ? `${(result.quality.inItems * 100).toFixed(1)}% in items` : "n/a"}`,
        );
        tree.push(result);
      }
      const runs: PeerResult[] = [];
      for (let i = 0; i < o.peerRuns; i++) {
        const r = await runTreePeer({ ...peerWorld, prompt: benchPrompt(depth, breadth), depth, breadth });
        o.log(`peer ${depth}x${breadth} on the overlapping web run ${i + 1}: ${(r.wallMs / 1000).toFixed(2)} s, ${r.llmCalls} LLM calls, ${r.promptTokens} prompt tokens`);
        runs.push(r);
      }
      if (runs.length) peer.push(peerRow(depth, breadth, o.peerConcurrency, o.latencies, runs));
    }
  } finally {
    await fakes.stop();
  }
  return { pages: o.pages, tree, peer };
}

export { formatWebsMarkdown };
