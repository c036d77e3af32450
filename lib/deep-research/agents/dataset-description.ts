// The dataset description: a few sentences on what a loaded table holds, written from its profile
// (columns, types, nulls, first rows), for the world state, the UI and the planner.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { TableProfile } from "../../datasets/profile";
import type { UsageSink } from "../../ai/usage";

const schema = z.object({
  description: z.string().describe("Two or three sentences: what one row is, what the columns measure, and what questions the table can answer"),
});

export async function describeDataset({ filename, profile, onUsage, signal }: { filename: string; profile: TableProfile; onUsage?: UsageSink; signal?: AbortSignal }): Promise<string> {
  const agent = "dr-dataset";
  const system = `${agentHeader(agent)}
Describe the uploaded dataset from its profile. Say only what the profile shows; state no figures it does not contain.`;
  const columns = profile.columns.map((c) => `${c.name} ${c.type} (${c.nulls} nulls)`).join("\n");
  const preview = [profile.preview.columns.join(" | "), ...profile.preview.rows.map((r) => r.map((v) => (v === null ? "NULL" : String(v))).join(" | "))].join("\n");
  const prompt = tag("dataset", `${tag("columns", columns)}\n${tag("first_rows", preview)}`, { file: filename, table: profile.table, rows: String(profile.rowCount) });
  const out = await generateStructured({ agent, schema, system, prompt, onUsage, signal });
  return out.description.trim();
}
