// The discovery agent: new discoveries of a level, and updates, merges or retirements of earlier
// ones (each with a reason). Every evidence item must be a stored snippet shown in the prompt:
// invented ids are dropped, a wrong task id is repaired from the item, and a new discovery left
// with no real evidence is rejected — so every discovery resolves to quotes and URLs, or to stored
// queries and their results. A discovery resting on a query result may state only numbers that its
// cited results (or its cited quotes) hold; one stating others is rejected.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, escapeAttr, estimateTokens, tag, trimToTokens } from "../../ai/prompts";
import type { AgentCall } from "./common";
import { unsupportedNumbers, type StoredResult } from "../../datasets/numbers";
import type { DiscoveryChange } from "../../db/discoveries";

const schema = z.object({
  discoveries: z.array(
    z.object({
      key: z.string().nullable().describe("The key of an earlier discovery (e.g. disc-2) to update, merge into or retire; null for a new one"),
      action: z.enum(["new", "update", "retire"]).describe("new, update (or merge into) an earlier one, or retire it"),
      claim: z.string().describe("The discovery, as one precise claim"),
      evidence: z.string().describe("The evidence for it, in a sentence or two"),
      novelty: z.string().describe("What is new about it compared with what was known"),
      confidence: z.enum(["high", "medium", "low"]).describe("How well the evidence supports it"),
      supportingTaskIds: z.array(z.string()).describe("Ids of the tasks whose results support it"),
      evidenceItems: z.array(z.object({ taskId: z.string().describe("The task id"), itemId: z.string().describe("The id of a snippet shown in <item id=…>") })).describe("The stored snippets it rests on"),
      reason: z.string().describe("Why it is new, changed or retired"),
    }),
  ).describe("The discoveries of this level and the changes to earlier ones"),
});

export type RawDiscovery = z.infer<typeof schema>["discoveries"][number];

export interface EvidenceItem {
  id: string;
  taskKey: string;
  content: string;
  url: string;
  /** For a query of an analysis task: its stored result, which the discovery's numbers must come from. */
  result?: StoredResult;
}

export interface ExistingDiscovery {
  key: string;
  claim: string;
  confidence: string;
  status: string;
}

export interface DiscoveryResult {
  changes: DiscoveryChange[];
  /** Invented item ids dropped, and discoveries rejected for lack of real evidence. */
  droppedItemIds: string[];
  rejected: string[];
}

/** The snippets, newest level's first, within a token budget. */
export function renderItems(items: EvidenceItem[], budgetTokens: number): { text: string; shown: EvidenceItem[] } {
  const lines: string[] = [];
  const shown: EvidenceItem[] = [];
  let used = 0;
  for (const item of items) {
    const line = `<item id="${escapeAttr(item.id)}" task="${escapeAttr(item.taskKey)}" url="${escapeAttr(item.url)}">${trimToTokens(item.content, 120)}</item>`;
    if (used + estimateTokens(line) > budgetTokens) break;
    used += estimateTokens(line);
    lines.push(line);
    shown.push(item);
  }
  return { text: lines.join("\n"), shown };
}

export async function findDiscoveries({ context, items, existing, itemBudgetTokens, knownTaskIds, onUsage, signal }: AgentCall & {
  items: EvidenceItem[];
  existing: ExistingDiscovery[];
  itemBudgetTokens: number;
  knownTaskIds: string[];
}): Promise<DiscoveryResult> {
  const agent = "dr-discovery";
  const { text, shown } = renderItems(items, itemBudgetTokens);
  const system = `${agentHeader(agent)}
Record the discoveries of this research level. Cite only snippets shown as <item id="…">, by their exact id. Update,
merge or retire earlier discoveries when the new evidence changes them, always with a reason; never drop one silently.`;
  const prompt = [
    context,
    tag("existing_discoveries", existing.map((d) => `<discovery key="${d.key}" status="${d.status}" confidence="${d.confidence}">${d.claim}</discovery>`).join("\n") || "(none)"),
    tag("snippets", text || "(no snippets)"),
  ].join("\n");
  const out = await generateStructured({ agent, schema, system, prompt, onUsage, signal });
  return validateDiscoveries(out.discoveries, shown, existing, knownTaskIds);
}

/** Checks the model's discoveries against the snippets it was shown and the discoveries that exist. */
export function validateDiscoveries(raw: RawDiscovery[], shown: EvidenceItem[], existing: ExistingDiscovery[], knownTaskIds: string[]): DiscoveryResult {
  const byId = new Map(shown.map((i) => [i.id, i]));
  const keys = new Set(existing.map((d) => d.key));
  const droppedItemIds: string[] = [];
  const rejected: string[] = [];
  const changes: DiscoveryResult["changes"] = [];
  for (const d of raw) {
    const key = d.key && keys.has(d.key) ? d.key : null;
    // An update or retirement of an unknown key is a new discovery, or nothing.
    const action = key ? d.action === "new" ? "update" : d.action : d.action === "retire" ? null : "new";
    if (!action) continue;
    const items: { taskKey: string; itemId: string }[] = [];
    for (const e of d.evidenceItems) {
      const item = byId.get(e.itemId);
      if (!item) droppedItemIds.push(e.itemId);
      else if (!items.some((i) => i.itemId === item.id)) items.push({ taskKey: item.taskKey, itemId: item.id });
    }
    if (action !== "retire" && items.length === 0 && action === "new") {
      rejected.push(d.claim);
      continue;
    }
    const results = items.flatMap((i) => byId.get(i.itemId)?.result ?? []);
    if (action !== "retire" && results.length > 0) {
      const quotes = items.filter((i) => !byId.get(i.itemId)?.result).map((i) => byId.get(i.itemId)!.content).join("\n");
      if (unsupportedNumbers(`${d.claim}\n${d.evidence}`, results, quotes).length > 0) {
        rejected.push(d.claim);
        continue;
      }
    }
    const tasks = new Set([...d.supportingTaskIds.filter((t) => knownTaskIds.includes(t)), ...items.map((i) => i.taskKey)]);
    changes.push({ key, action, claim: d.claim.trim(), evidence: d.evidence, novelty: d.novelty, confidence: d.confidence, supportingTaskIds: [...tasks], items, reason: d.reason });
  }
  return { changes, droppedItemIds, rejected };
}
