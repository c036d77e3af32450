// Datasets uploaded with a start: stored under UPLOADS_DIR/<conversation>/ and listed in the world
// state with their filename, size and a short text preview (dataset analysis comes later).
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env";
import { storable } from "../validation/text";

export interface UploadedDataset {
  filename: string;
  size: number;
  preview: string;
  uploadedAt: string;
}

const PREVIEW_CHARS = 500;

/** A safe file name: no directories, no control characters. */
function safeName(name: string): string {
  return path.basename(name).replace(/[^\w.\- ]+/g, "_").slice(0, 200) || "dataset";
}

export async function storeUploads(conversationId: string, files: File[]): Promise<UploadedDataset[]> {
  const dir = path.join(getEnv().UPLOADS_DIR, conversationId);
  await fs.mkdir(dir, { recursive: true });
  const out: UploadedDataset[] = [];
  for (const file of files) {
    const bytes = Buffer.from(await file.arrayBuffer());
    const filename = safeName(file.name);
    await fs.writeFile(path.join(dir, filename), bytes);
    const preview = storable(bytes.subarray(0, PREVIEW_CHARS * 4).toString("utf8")).slice(0, PREVIEW_CHARS);
    out.push({ filename, size: bytes.byteLength, preview, uploadedAt: new Date().toISOString() });
  }
  return out;
}
