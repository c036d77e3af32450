// CLI: starts the three fakes for out-of-process users (Playwright, the benchmark), prints one JSON
// line with their URLs, and runs until SIGTERM or SIGINT.
//   tsx test/fakes/serve.ts --llm-port 4101 --search-port 4102 --web-port 4103 \
//     [--llm-latency 150 --search-latency 80 --web-latency 60] [--failing-page-share 0]
//     [--web-pages 800]   search results from the large fixture web of that many pages (web-large.ts)
//     [--overlap-web 30]  search results from the overlapping fixture web of that many pages (web-overlap.ts)
//     [--faults [--faults-port 4104]]   the fault proxy in front of the LLM (no faults until
//                                       configured over POST /__control); its URL is printed as "faults"
import { parseArgs } from "node:util";
import { startFakes } from "./index";

const { values } = parseArgs({
  options: {
    "llm-port": { type: "string", default: "0" },
    "search-port": { type: "string", default: "0" },
    "web-port": { type: "string", default: "0" },
    "llm-latency": { type: "string", default: "0" },
    "search-latency": { type: "string", default: "0" },
    "web-latency": { type: "string", default: "0" },
    "failing-page-share": { type: "string" },
    "web-pages": { type: "string", default: "0" },
    "overlap-web": { type: "string", default: "0" },
    faults: { type: "boolean", default: false },
    "faults-port": { type: "string", default: "0" },
  },
});

function num(name: Exclude<keyof typeof values, "faults">): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`--${name} must be a non-negative number, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const fakes = await startFakes({
  ports: { llm: num("llm-port"), search: num("search-port"), web: num("web-port"), faults: num("faults-port") },
  faults: values.faults || undefined,
  llm: { latencyMs: num("llm-latency") },
  search: { latencyMs: num("search-latency"), failingPageShare: num("failing-page-share"), largeWeb: num("web-pages"), overlapWeb: num("overlap-web") },
  web: { latencyMs: num("web-latency"), largeWeb: num("web-pages"), overlapWeb: num("overlap-web") },
});

console.log(JSON.stringify({ llm: fakes.llm.url, searxng: fakes.search.url, web: fakes.web.url, ...(fakes.faults ? { faults: fakes.faults.url } : {}) }));

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void fakes.stop().then(() => process.exit(0));
  });
}
