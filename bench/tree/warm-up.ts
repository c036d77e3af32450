// The warm-up before a measured run: researches that take every path the measured one takes (root
// and child planning, search, fetches, analyses, the report and its verification) often enough that
// the server's and each worker's hot code is compiled by V8's optimising tiers before the measurement
// starts, as it is in a process that has served for a while. One (1, 1) research, the warm-up before,
// loaded the modules but left the code cold: a queue row's second worker, which it gave no node job,
// ran the measured row on baseline code and spent ~45% more CPU per job than the first.
//
// Each process that does the research work gets the same warm-up: the embedded server all of it, and
// in queue mode each worker its share of `processes` times as many researches (the workers split a
// research's node jobs between them). Nine researches split over two workers, half of it each, left
// them ~20% short of their steady CPU on a single (5, 5) (bench/README.md, "2026-12-04/05, 22:54–00:30 UTC").
import type { TestApp } from "../../test/helpers/app-server";
import { createAndStart, waitForStatus } from "../../test/helpers/research";

export const WARM_UP = {
  researches: Number(process.env.BENCH_WARM_UP_RESEARCHES ?? 9),
  depth: Number(process.env.BENCH_WARM_UP_DEPTH ?? 2),
  breadth: Number(process.env.BENCH_WARM_UP_BREADTH ?? 3),
};

/** Researches at once: a user's running researches (and planning calls) are limited to 3 by default (lib/env.ts). */
const AT_ONCE = 3;

/** AT_ONCE at a time, each wave until all of it has ended; `processes`: those that share the work (queue mode's workers). */
export async function warmUp(app: TestApp, processes = 1): Promise<void> {
  const { depth, breadth } = WARM_UP;
  const researches = WARM_UP.researches * processes;
  for (let first = 0; first < researches; first += AT_ONCE) {
    const wave: string[] = [];
    for (let i = first; i < Math.min(researches, first + AT_ONCE); i++) wave.push(await createAndStart(app, { prompt: `Warm-up run ${i + 1}`, depth, breadth, questions: 1 }));
    for (const id of wave) await waitForStatus(app, id, ["completed", "failed"], 300_000);
  }
}
