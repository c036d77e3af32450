// Built exports kept per report version: the key is a hash of everything the file is made from (the
// document or the paper's input, the format, the engine), so a report that changed gets a new build
// and an unchanged one is served from here, within a memory budget (the oldest go first). Two
// requests for the same version at once share one build.
import { createHash } from "node:crypto";
import { BoundedMap } from "../bounded-map";
import type { ExportFile } from "./render";

/** Bumped when a writer changes what it makes from the same input. */
const WRITERS_VERSION = "2";
const BUDGET_BYTES = 64 << 20;

interface ExportCache {
  built: BoundedMap<string, ExportFile>;
  building: Map<string, Promise<ExportFile>>;
  hits: number;
}

const globalForExports = globalThis as unknown as { quarryExportCache?: ExportCache };
const cache = (): ExportCache => (globalForExports.quarryExportCache ??= { built: new BoundedMap(BUDGET_BYTES, (f) => f.body.byteLength), building: new Map(), hits: 0 });

/** The key of one build: the format and a hash of its input. */
export function exportKey(format: string, input: unknown, extra = ""): string {
  return `${format}:${createHash("sha256").update(`${WRITERS_VERSION}\n${extra}\n${JSON.stringify(input)}`).digest("base64url")}`;
}

/** The file built for `key`, from the cache or built now (one build per key at a time). */
export async function cachedExport(key: string, build: () => Promise<ExportFile>): Promise<ExportFile> {
  const c = cache();
  const kept = c.built.get(key);
  if (kept) {
    c.hits++;
    return kept;
  }
  const pending = c.building.get(key);
  if (pending) return pending;
  const building = build().then(
    (file) => {
      c.building.delete(key);
      return c.built.getOrAdd(key, () => file);
    },
    (error: unknown) => {
      c.building.delete(key);
      throw error;
    },
  );
  c.building.set(key, building);
  return building;
}

/** How many exports were served from the cache (tests, the bench). */
export const exportCacheHits = () => cache().hits;
