// Queue mode's tree split, without Redis: exploreOnWorkers and runTreeNode against a node queue in
// this process that runs every node job TWICE at once (a duplicated or retried job), against the
// loopback fakes and a real migrated database (SQLite, or PostgreSQL with TEST_DATABASE=postgres).
// Every query, page, link and item must still be there exactly once, and the events numbered once.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { countStatements, useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";
import type { PartJobState as NodeJobState, PartJobs as NodeQueue } from "../runs/part-jobs";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0", PLAN_RETRY_DELAY_MS: "200" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { exploreOnWorkers, runTreeNode } = await import("./distributed");
const { SharedSeqSink } = await import("../runs/shared-events");
const { eventBus } = await import("../events/bus");
const { queriesPerLevel } = await import("./tree");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

const ATTEMPTS = 3;

/** Node jobs in this process: each added node runs twice concurrently; a finished node's job reads as completed. */
function duplicatingQueue(): NodeQueue & { runs: number; wakes: number; settled: () => Promise<void> } {
  const jobs = new Map<string, Promise<NodeJobState>>();
  const ended = new Map<string, NodeJobState>();
  const queue = {
    runs: 0,
    /** How often the last node at work woke the coordinator. */
    wakes: 0,
    async wakeParent() {
      queue.wakes++;
    },
    async ensure(researchId: string, queryIds: string[], { replaceEnded }: { replaceEnded: boolean }) {
      const states = new Map<string, NodeJobState>();
      for (const queryId of queryIds) {
        const done = ended.get(queryId);
        if (done && !replaceEnded) {
          states.set(queryId, done);
          continue;
        }
        if (!jobs.has(queryId) || done) {
          ended.delete(queryId);
          // As a BullMQ job: a run that throws is attempted again (lib/queue/tree-nodes.ts), and the
          // retry must find what the failed attempt stored, never duplicate it.
          const one = async () => {
            for (let attempt = 1; ; attempt++) {
              queue.runs++;
              try {
                return await runTreeNode({ researchId, queryId, nodes: queue });
              } catch (error) {
                if (attempt >= ATTEMPTS) throw error;
                console.error(`node ${queryId} attempt ${attempt} failed, retrying:`, error);
              }
            }
          };
          const job = Promise.all([one(), one()]).then(
            (): NodeJobState => "completed",
            (error: Error): NodeJobState => ({ failed: error.message }),
          );
          jobs.set(queryId, job);
          void job.then((state) => ended.set(queryId, state));
        }
        states.set(queryId, "running");
      }
      return states;
    },
    async running(queryIds: string[]) {
      return queryIds.filter((id) => jobs.has(id) && !ended.has(id)).length;
    },
    settled: async () => void (await Promise.all(jobs.values())),
  };
  return queue;
}

/**
 * The coordinator as a queue worker runs it: a look, then parked until a node wakes it, then another
 * look, until one finds the tree explored. Each wake-up is a look of its own (a wake that comes during
 * a look starts the next one at once, as the worker's kept wake-up does). Returns the looks' count.
 */
async function exploreParked(look: (replaceEnded: boolean) => Promise<"explored" | "parked">, nodes: { wakes: number }): Promise<number> {
  let seen = nodes.wakes;
  let looks = 1;
  for (let outcome = await look(true); outcome === "parked"; looks++) {
    const deadline = Date.now() + 60_000;
    while (nodes.wakes === seen) {
      assert.ok(Date.now() < deadline, "a node woke the coordinator");
      await new Promise((r) => setTimeout(r, 20));
    }
    seen = nodes.wakes;
    outcome = await look(false);
  }
  return looks;
}

test("a tree explored as node jobs, each run twice at once: every query, page, link and item once", async () => {
  const depth = 3;
  const breadth = 2;
  const research = await db.research.create({ data: { initialPrompt: "District heating with heat pumps", status: "running", depth, breadth } });
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const seqs: number[] = [];
  const unsubscribe = eventBus.subscribe({ kind: "tree", subjectId: research.id }, (e) => void seqs.push(e.seq));
  const nodes = duplicatingQueue();
  const sink = new SharedSeqSink(run.id);
  const scope = { researchId: research.id, prompt: research.initialPrompt, qa: [], depth, breadth };
  await exploreParked((replaceEnded) => exploreOnWorkers({ scope, sink, signal: new AbortController().signal, leaseLost: () => false, nodes, replaceEnded }), nodes);
  await nodes.settled();
  await sink.flushed();
  unsubscribe();

  const queries = await db.serpQuery.findMany({ where: { researchId: research.id } });
  const byDepth = queries.reduce<number[]>((n, q) => ((n[q.depth - 1] = (n[q.depth - 1] ?? 0) + 1), n), []);
  assert.deepEqual(byDepth, queriesPerLevel(depth, breadth), "every query once");
  assert.ok(queries.every((q) => q.status === "completed"), "every query completed");
  assert.ok(nodes.runs >= 2 * queries.length, `every node ran twice (${nodes.runs} runs for ${queries.length} queries)`);
  const pages = await db.page.findMany({ where: { researchId: research.id } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size, "each page once");
  assert.ok(pages.every((p) => p.status === "scraped" || p.status === "failed"), "every page fetched");
  const links = await db.queryPage.findMany({ where: { query: { researchId: research.id } } });
  assert.ok(links.every((l) => l.status === "analyzed" || l.status === "failed"), "every link analysed");
  const items = await db.extractedItem.findMany({ where: { researchId: research.id } });
  assert.ok(items.length > 0);
  assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size, "each item once");
  // Numbered one at a time from the database: never twice, and the run's counter is past them all.
  assert.ok(seqs.length > 10);
  assert.equal(seqs.length, new Set(seqs).size, "no event number used twice");
  const { seq } = await db.run.findUniqueOrThrow({ where: { id: run.id } });
  assert.ok(Math.max(...seqs) <= seq);
});

test("parked: the coordinator looks once and parks while nodes work; the last node to end wakes it, and woken it finds the tree explored", async () => {
  const depth = 2;
  const breadth = 2;
  const research = await db.research.create({ data: { initialPrompt: "Heat pump retrofits in terraced houses", status: "running", depth, breadth } });
  const run = await db.run.create({ data: { kind: "tree", subjectId: research.id, status: "running" } });
  const nodes = duplicatingQueue();
  const sink = new SharedSeqSink(run.id);
  const scope = { researchId: research.id, prompt: research.initialPrompt, qa: [], depth, breadth };
  const look = (replaceEnded: boolean) => exploreOnWorkers({ scope, sink, signal: new AbortController().signal, leaseLost: () => false, nodes, replaceEnded });
  // The look at whether any query is at work, which decides a wake-up (store.hasQueriesAtWork).
  const idleLooks = countStatements(/SELECT 1 AS "one" FROM "SerpQuery" WHERE "researchId" = /);
  let first: string | undefined;
  const looks = await exploreParked(async (replaceEnded) => {
    const outcome = await look(replaceEnded);
    first ??= outcome;
    return outcome;
  }, nodes);
  assert.equal(first, "parked", "the roots' jobs were queued and the coordinator parked");
  await nodes.settled();
  await sink.flushed();
  const queries = await db.serpQuery.findMany({ where: { researchId: research.id } });
  assert.deepEqual([queries.filter((q) => q.depth === 1).length, queries.filter((q) => q.depth === 2).length], queriesPerLevel(depth, breadth));
  assert.ok(queries.every((q) => q.status === "completed"), "every query completed");
  // Woken only when no query was at work: once per level's end at most, not once per node.
  assert.ok(nodes.wakes >= 1 && nodes.wakes <= queries.length, `${nodes.wakes} wake-ups for ${queries.length} queries`);
  assert.ok(looks <= nodes.wakes + 1, `${looks} looks`);
  // A node that handed its children off does not look (they are at work): only the others' runs do.
  idleLooks.stop();
  const handedOff = queries.filter((q) => q.depth === 1).length;
  assert.ok(idleLooks.count > 0 && idleLooks.count <= nodes.runs - handedOff, `${idleLooks.count} looks at the tree's work for ${nodes.runs} node runs`);
});
