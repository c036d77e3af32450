// A conversation's datasets as the world state holds them (Conversation.uploadedDatasets, a JSON
// list): each upload with, once loaded, its table, profile and description, or the error that kept it
// out. Profiles are merged in by file name with the conversation's compare-and-set, so an upload
// stored meanwhile by a new start is kept. The queries of analysis tasks live in the task's artifacts.
import { parseJson } from "./json";
import { updateConversation } from "./conversations";

// The profile's shapes (lib/datasets/profile.ts) restated: lib/db depends on nothing above it.
type Cell = string | number | boolean | null;
interface ColumnProfile { name: string; type: string; nulls: number }

export interface DatasetEntry {
  filename: string;
  /** The file's own name on disk (unique per upload); absent on uploads stored before names were made unique. */
  storedName?: string;
  size: number;
  preview: string;
  uploadedAt: string;
  /** Absent until the engine has tried to load the file. */
  status?: "loaded" | "failed";
  table?: string;
  rowCount?: number;
  columns?: ColumnProfile[];
  previewRows?: { columns: string[]; rows: Cell[][] };
  description?: string | null;
  error?: string;
  loadMs?: number;
  /** How a text file was read when not plain UTF-8 with its name's delimiter ("Latin-1 (Windows-1252) text, semicolon-separated"). */
  readAs?: string | null;
}

export function datasetEntries(uploadedDatasets: string | null | undefined): DatasetEntry[] {
  return parseJson<DatasetEntry[]>(uploadedDatasets, []);
}

/** Writes each file's outcome onto its entry (by file name; the first entry without a status). */
export async function saveDatasetOutcomes(conversationId: string, outcomes: (Partial<DatasetEntry> & { filename: string })[]): Promise<void> {
  await updateConversation(conversationId, (c) => {
    const entries = datasetEntries(c.uploadedDatasets);
    for (const o of outcomes) {
      const i = entries.findIndex((e) => e.filename === o.filename && !e.status);
      if (i >= 0) entries[i] = { ...entries[i], ...o };
    }
    return { uploadedDatasets: JSON.stringify(entries) };
  });
}
