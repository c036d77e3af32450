// Datasets uploaded with a start: stored under UPLOADS_DIR/<conversation>/ and listed in the world
// state with the name the user gave, size and a short text preview (dataset analysis comes later).
// Each file is stored under a name of its own (a short random prefix and the sanitised name), so no
// upload overwrites another; the checks below run before anything is stored or claimed.
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { formatBytes } from "../scrape/errors";
import { AppError } from "../errors";
import { storable } from "../validation/text";

export interface UploadedDataset {
  /** The name the user gave (without directories): what the world state, plans and tasks show. */
  filename: string;
  /** The file's name in the conversation's directory: unique, whatever the user called it. */
  storedName: string;
  size: number;
  preview: string;
  uploadedAt: string;
}

/** A file of a start's request with its checked display name. */
export interface CheckedUpload {
  file: File;
  filename: string;
}

const PREVIEW_CHARS = 500;
const MAX_NAME_CHARS = 200;

function badUpload(message: string): AppError {
  return new AppError("bad_request:upload", message, { field: "files" });
}

/** The name to show: no directories (either separator), no control characters, NFC, trimmed. */
function displayName(name: string): string {
  return (name.split(/[\\/]/).at(-1) ?? "").normalize("NFC").replace(/[\u0000-\u001f\u007f]/g, "").trim();
}

/** The name on disk: only portable characters. */
function safeName(name: string): string {
  return name.replace(/[^\w.\- ]+/g, "_");
}

/**
 * Checks a start's files before anything is stored: every name usable, no two the same once
 * sanitised (compared without case). Datasets are referred to by name in plans and tasks, so two that
 * read the same — or differ only in characters a file name cannot hold — would be confused.
 */
export function checkUploadNames(files: File[], { maxFiles }: { maxFiles: number }): CheckedUpload[] {
  // Too many is said first (and each name is not checked): a start may attach thousands.
  if (files.length > maxFiles) throw badUpload(`files: ${files.length} files attached; a conversation may hold at most ${maxFiles} datasets (DATASET_MAX_FILES).`);
  const seen = new Map<string, string>();
  return files.map((file) => {
    const filename = displayName(file.name);
    if (filename === "" || /^\.+$/.test(filename)) throw badUpload(`files: "${file.name}" is not a usable file name; rename the file and attach it again.`);
    if (filename.length > MAX_NAME_CHARS) throw badUpload(`files: "${filename.slice(0, 40)}…" has a name longer than ${MAX_NAME_CHARS} characters.`);
    const key = safeName(filename).toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      throw badUpload(other === filename
        ? `files: "${filename}" is attached twice; attach each file once.`
        : `files: "${other}" and "${filename}" have the same name once sanitised for storage ("${safeName(filename)}"); rename one.`);
    }
    seen.set(key, filename);
    return { file, filename };
  });
}

/**
 * A start with files for a conversation whose research is running cannot take them (one loop per
 * conversation; its datasets are loaded when a start begins): a 409 that says so, rather than the
 * running start's reply with the files dropped silently.
 */
export function filesNotTaken(count: number): AppError {
  return new AppError(
    "conflict:conversation",
    `This conversation's research is still running, so the ${count === 1 ? "attached file was" : `${count} attached files were`} not taken. Attach ${count === 1 ? "it" : "them"} again with a start once the research has finished or been stopped.`,
    { field: "files" },
  );
}

/** Checks that the conversation, with the start's files added, stays within its number and total size of datasets. */
export function checkDatasetLimits({ existing, uploads, maxFiles, maxTotalBytes }: { existing: UploadedDataset[]; uploads: CheckedUpload[]; maxFiles: number; maxTotalBytes: number }): void {
  if (existing.length + uploads.length > maxFiles) {
    const held = existing.length > 0 ? ` (it holds ${existing.length} already)` : "";
    throw badUpload(`files: ${uploads.length} files attached; a conversation may hold at most ${maxFiles} datasets${held} (DATASET_MAX_FILES).`);
  }
  const total = existing.reduce((sum, d) => sum + d.size, 0) + uploads.reduce((sum, u) => sum + u.file.size, 0);
  if (total > maxTotalBytes) {
    throw badUpload(`files: the conversation's datasets would total ${formatBytes(total)}, more than the limit of ${formatBytes(maxTotalBytes)} (DATASET_MAX_TOTAL_BYTES).`);
  }
}

/**
 * Writes the files under UPLOADS_DIR/<conversation>/, each under a new name (opened exclusively:
 * never over another file). If one cannot be written, the ones written are removed and it throws.
 */
export async function storeUploads(uploadsDir: string, conversationId: string, uploads: CheckedUpload[]): Promise<UploadedDataset[]> {
  if (uploads.length === 0) return [];
  const dir = path.join(/*turbopackIgnore: true*/ uploadsDir, conversationId);
  await fs.mkdir(dir, { recursive: true });
  const out: UploadedDataset[] = [];
  try {
    for (const { file, filename } of uploads) {
      const storedName = `${randomBytes(6).toString("hex")}-${safeName(filename)}`;
      const target = path.join(dir, storedName);
      // Streamed to disk: a file of DATASET_MAX_BYTES is never held in memory whole. A write that
      // fails part-way leaves no part behind (one that found the name taken touched nothing).
      try {
        await pipeline(Readable.fromWeb(file.stream() as WebReadableStream<Uint8Array>), createWriteStream(target, { flags: "wx" }));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") await fs.rm(target, { force: true });
        throw error;
      }
      const head = await readStart(target, PREVIEW_CHARS * 4);
      const preview = storable(head.toString("utf8")).slice(0, PREVIEW_CHARS);
      out.push({ filename, storedName, size: file.size, preview, uploadedAt: new Date().toISOString() });
    }
  } catch (error) {
    await removeUploads(uploadsDir, conversationId, out);
    throw error;
  }
  return out;
}

/** The first `bytes` bytes of a file. */
async function readStart(filePath: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(filePath);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Removes stored files of a start that did not go ahead. */
export async function removeUploads(uploadsDir: string, conversationId: string, stored: UploadedDataset[]): Promise<void> {
  const dir = path.join(/*turbopackIgnore: true*/ uploadsDir, conversationId);
  await Promise.all(stored.map((d) => fs.rm(path.join(dir, d.storedName), { force: true })));
  // The directory of a conversation that was never created is left empty: remove it (only if empty).
  await fs.rmdir(dir).catch(() => undefined);
}
