// Rendering a retrieved slice of the world state into a prompt within a token budget. Sections go in
// priority order; each gets at most its share of what is left and is trimmed to it, so the prompt
// stays bounded however long the conversation runs. Pure: tested in render.test.ts.
import { estimateTokens, tag, trimToTokens } from "../ai/prompts";

export interface Section {
  name: string;
  text: string;
  /** The most of the remaining budget this section may take (0..1). */
  share: number;
}

export function renderSections(sections: Section[], budgetTokens: number): string {
  let remaining = budgetTokens;
  const out: string[] = [];
  for (const s of sections) {
    if (!s.text.trim() || remaining < 40) continue;
    const allowance = Math.max(40, Math.floor(remaining * s.share));
    const block = tag(s.name, trimToTokens(s.text, allowance - 10));
    out.push(block);
    remaining -= estimateTokens(block);
  }
  return out.join("\n");
}

export interface WorldView {
  objective: string;
  currentObjective: string | null;
  evolvingObjective: string | null;
  hypothesis: string | null;
  userMessage: string | null;
  /** Recent levels' tasks, newest level first. */
  tasks: { key: string; level: number; type: string; status: string; objective: string; output: string | null; error: string | null }[];
  discoveries: { key: string; claim: string; confidence: string; status: string }[];
  keyInsights: string[];
  openQuestions: string[];
  datasets: { filename: string; size: number; preview: string; status?: string; table?: string; rowCount?: number; columns?: { name: string; type: string }[]; description?: string | null; error?: string }[];
  methodology: string | null;
  level: number;
}

/** The world view as a prompt, within `budgetTokens`. */
export function renderWorldView(v: WorldView, budgetTokens: number): string {
  const tasks = v.tasks
    .map((t) => `[${t.key}] (level ${t.level}, ${t.type}, ${t.status}) ${t.objective}\n${t.output ? trimToTokens(t.output, 400) : t.error ? `Error: ${t.error}` : ""}`)
    .join("\n\n");
  return renderSections(
    [
      { name: "objective", text: `Original objective: ${v.objective}${v.currentObjective ? `\nCurrent objective: ${v.currentObjective}` : ""}${v.evolvingObjective ? `\nEvolving objective: ${v.evolvingObjective}` : ""}\nLevel: ${v.level}`, share: 0.2 },
      { name: "user_message", text: v.userMessage ?? "", share: 0.15 },
      { name: "hypothesis", text: v.hypothesis ?? "", share: 0.1 },
      { name: "recent_tasks", text: tasks, share: 0.45 },
      { name: "discoveries", text: v.discoveries.map((d) => `[${d.key}] (${d.status}, ${d.confidence}) ${d.claim}`).join("\n"), share: 0.5 },
      { name: "key_insights", text: v.keyInsights.map((i) => `- ${i}`).join("\n"), share: 0.5 },
      { name: "open_questions", text: v.openQuestions.map((q) => `- ${q}`).join("\n"), share: 0.5 },
      { name: "datasets", text: v.datasets.map(datasetLine).join("\n"), share: 0.5 },
      { name: "methodology", text: v.methodology ?? "", share: 1 },
    ],
    budgetTokens,
  );
}

/** A loaded dataset by its table and columns (what an ANALYSIS task can query), a failed one by its error. */
function datasetLine(d: WorldView["datasets"][number]): string {
  if (d.status === "loaded" && d.table) {
    return `${d.filename} → table ${d.table} (${d.rowCount ?? 0} rows; ${(d.columns ?? []).map((c) => `${c.name} ${c.type}`).join(", ")})${d.description ? `: ${d.description}` : ""}`;
  }
  if (d.status === "failed") return `${d.filename}: not loaded (${d.error ?? "unknown error"})`;
  return `${d.filename} (${d.size} bytes): ${d.preview}`;
}
