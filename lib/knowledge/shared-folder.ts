// KNOWLEDGE_DOCS_PATH: a folder mirrored as one shared, read-only collection. Indexed at start-up, then
// again whenever a file in it changes (fs.watch, debounced) and every RESCAN_MS as a backstop (a
// watch can miss events on network file systems). A file is re-read only when its modification time
// changed, and re-indexed only when its bytes did; a removed file leaves the collection.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "../errors";
import * as store from "../db/knowledge";
import { ACCEPTED_EXTENSIONS } from "./formats";
import { textEncodingOf } from "./encoding";
import { prepareDocument } from "./index-document";

const RESCAN_MS = 60_000;
const DEBOUNCE_MS = 300;
const MAX_FILES = 100_000;

/** Regular files with an accepted extension under `root`, as paths relative to it. Symbolic links are not followed: nothing outside the folder is read. */
function listFiles(root: string): string[] {
  const out: string[] = [];
  const stack = [""];
  while (stack.length > 0 && out.length < MAX_FILES) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue; // removed meanwhile, or unreadable
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) stack.push(rel);
      else if (entry.isFile() && ACCEPTED_EXTENSIONS.includes(path.extname(entry.name).toLowerCase())) out.push(rel);
    }
  }
  return out.sort();
}

export interface SyncResult {
  collectionId: string;
  added: number;
  updated: number;
  removed: number;
  failed: string[];
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";

/** Brings the shared collection in line with the folder. Safe to run from several processes at once. */
export async function syncSharedFolder(folder: string): Promise<SyncResult> {
  const root = path.resolve(folder);
  const shared = { sourceRoot: root, name: `Shared: ${path.basename(root)}` };
  const collection = await store.sharedCollection(shared).catch(async (error) => {
    if (!isUniqueViolation(error)) throw error;
    return store.sharedCollection(shared); // created by another process meanwhile
  });
  const result: SyncResult = { collectionId: collection.id, added: 0, updated: 0, removed: 0, failed: [] };
  const known = new Map((await store.sourceFiles({ collectionId: collection.id })).map((d) => [d.sourcePath!, d]));
  const files = fs.existsSync(root) ? listFiles(root) : [];
  for (const rel of files) {
    const full = path.join(root, rel);
    let stat: fs.Stats;
    let bytes: Buffer;
    try {
      stat = fs.statSync(full);
      const row = known.get(rel);
      if (row && row.sourceMtime?.getTime() === Math.floor(stat.mtimeMs)) continue;
      bytes = fs.readFileSync(full);
    } catch {
      continue; // removed between the listing and now: the next scan sees it gone
    }
    const mtime = new Date(Math.floor(stat.mtimeMs));
    const row = known.get(rel);
    const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
    const name = path.basename(rel);
    let prepared: Awaited<ReturnType<typeof prepareDocument>> | undefined;
    let error: string | undefined;
    if (row?.sha256 !== sha256) {
      try {
        prepared = await prepareDocument(name, bytes);
      } catch (e) {
        error = errorMessage(e);
        result.failed.push(`${rel}: ${error}`);
      }
    }
    // A text file's encoding is named on the document (UTF-8, Windows-1252 …).
    if (prepared) prepared.meta.encoding = textEncodingOf(prepared.meta.format, bytes);
    const meta = prepared?.meta ?? { name, format: path.extname(rel).slice(1).toLowerCase(), bytes: bytes.length, sha256 };
    try {
      if (!row) {
        if (prepared) await store.createIndexedDocument({ collectionId: collection.id, meta: prepared.meta, content: bytes, chunks: prepared.chunks, sourcePath: rel, sourceMtime: mtime });
        else await store.recordFailedDocument({ collectionId: collection.id, meta, content: bytes, error: error!, sourcePath: rel, sourceMtime: mtime });
        result.added++;
      } else if (row.sha256 === sha256) {
        // Touched, not changed: only the time is new.
        await store.touchSourceFile({ id: row.id, sourceMtime: mtime });
      } else {
        await store.replaceDocumentFile({ id: row.id, collectionId: collection.id, meta, content: bytes, chunks: prepared?.chunks ?? [], sourceMtime: mtime, error });
        result.updated++;
      }
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // else another process indexed it first
    }
  }
  const present = new Set(files);
  for (const [rel, row] of known) {
    if (present.has(rel)) continue;
    await store.deleteDocument({ id: row.id, collectionId: collection.id });
    result.removed++;
  }
  return result;
}

const globalForFolder = globalThis as unknown as { quarryKnowledgeWatch?: { close: () => void } };

function log(result: SyncResult, folder: string): void {
  if (result.added + result.updated + result.removed > 0) {
    console.log(`[quarry] knowledge base ${folder}: ${result.added} added, ${result.updated} updated, ${result.removed} removed`);
  }
  for (const failure of result.failed) console.warn(`[quarry] knowledge base: ${failure}`);
}

/**
 * Indexes the folder now and keeps it indexed. One sync at a time: changes arriving during a sync
 * start one more after it. On globalThis: the server's start and its routes are separate bundles.
 */
export async function watchSharedFolder(folder: string): Promise<void> {
  globalForFolder.quarryKnowledgeWatch?.close();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const sync = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = syncSharedFolder(folder)
      .then((result) => log(result, folder))
      .catch((error) => console.error(`[quarry] knowledge base ${folder}: indexing failed:`, error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void sync();
        }
      });
    return running;
  };
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void sync(), DEBOUNCE_MS);
  };
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(folder, { recursive: true }, soon);
    watcher.on("error", (error) => console.warn(`[quarry] knowledge base ${folder}: watching stopped (${errorMessage(error)}); rescanning every ${RESCAN_MS / 1000} s`));
  } catch (error) {
    console.warn(`[quarry] knowledge base ${folder}: cannot watch the folder (${errorMessage(error)}); rescanning every ${RESCAN_MS / 1000} s`);
  }
  const interval = setInterval(() => void sync(), RESCAN_MS);
  interval.unref();
  globalForFolder.quarryKnowledgeWatch = {
    close: () => {
      watcher?.close();
      clearInterval(interval);
      clearTimeout(timer);
    },
  };
  await sync();
}
