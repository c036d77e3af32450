// The discovery agent: new discoveries of a level, and updates, merges or retirements of earlier
// ones (each with a reason). It names what exists by handle: the snippets shown (S1, S2 …, stored
// snippets and analysis queries: agents/snippets.ts), the tasks (lit-1-2) and the earlier
// discoveries (disc-2), and each is resolved here (agents/choices.ts). Evidence that names no shown
// snippet is dropped and a wrong task is repaired from the item; a discovery left with no evidence
// is kept, without linked evidence (its view says so), rather than lost. A discovery resting on a
// query result may state only numbers that its cited results (or its cited quotes) hold; one whose
// cited result does not hold them is linked to the one snippet shown that does (a misnamed handle), and
// one that no snippet shown supports is rejected: that is a judgement, not a naming problem.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import { resolveChoice, type Choice } from "../../ai/resolve";
import type { AgentCall } from "./common";
import { unsupportedNumbers } from "../../datasets/numbers";
import type { DiscoveryChange } from "../../db/discoveries";
import { handleField, resolveAll } from "./choices";
import { renderItems, type EvidenceItem } from "./snippets";

/** The schema of one call: the handles of the snippets shown, the tasks and the earlier discoveries. */
function discoverySchema(itemHandles: string[], taskKeys: string[], discoveryKeys: string[]) {
  return z.object({
    discoveries: z.array(
      z.object({
        key: handleField(discoveryKeys, "An earlier discovery's key").nullable().describe("The key of an earlier discovery (e.g. disc-2) to update, merge into or retire; null for a new one"),
        action: z.enum(["new", "update", "retire"]).describe("new, update (or merge into) an earlier one, or retire it"),
        claim: z.string().describe("The discovery, as one precise claim"),
        evidence: z.string().describe("The evidence for it, in a sentence or two"),
        novelty: z.string().describe("What is new about it compared with what was known"),
        confidence: z.enum(["high", "medium", "low"]).describe("How well the evidence supports it"),
        supportingTaskIds: z.array(handleField(taskKeys, "A task's id")).describe("Ids of the tasks whose results support it (e.g. lit-1-2)"),
        evidenceItems: z.array(handleField(itemHandles, "A snippet's handle")).describe("The handles of the snippets it rests on, as shown in <item id=…> (S1, S2 …)"),
        reason: z.string().describe("Why it is new, changed or retired"),
      }),
    ).describe("The discoveries of this level and the changes to earlier ones"),
  });
}

export type RawDiscovery = z.infer<ReturnType<typeof discoverySchema>>["discoveries"][number];

export interface ExistingDiscovery {
  key: string;
  claim: string;
  confidence: string;
  status: string;
}

export interface DiscoveryResult {
  changes: DiscoveryChange[];
  /** Evidence values that named no snippet shown (dropped). */
  droppedItemIds: string[];
  /** Discoveries kept without linked evidence: none of their evidence named a snippet shown. */
  unlinked: string[];
  /** Discoveries rejected for stating numbers their cited results do not hold, nor any one result shown. */
  rejected: string[];
  /** Discoveries whose cited result did not hold their numbers, linked to the snippets shown (results or pages') that hold them (evidenceHolding). */
  relinked: string[];
}

export async function findDiscoveries({ context, items, existing, itemBudgetTokens, knownTaskIds, onUsage, signal }: AgentCall & {
  items: EvidenceItem[];
  existing: ExistingDiscovery[];
  itemBudgetTokens: number;
  knownTaskIds: string[];
}): Promise<DiscoveryResult> {
  const agent = "dr-discovery";
  const { text, choices } = renderItems(items, itemBudgetTokens);
  const system = `${agentHeader(agent)}
Record the discoveries of this research level. Cite only snippets shown as <item id="…">, by their handle (S1, S2 …). Update,
merge or retire earlier discoveries when the new evidence changes them, always with a reason; never drop one silently.`;
  const prompt = [
    context,
    tag("existing_discoveries", existing.map((d) => `<discovery key="${d.key}" status="${d.status}" confidence="${d.confidence}">${d.claim}</discovery>`).join("\n") || "(none)"),
    tag("snippets", text || "(no snippets)"),
  ].join("\n");
  const schema = discoverySchema(choices.map((c) => c.handle), knownTaskIds, existing.map((d) => d.key));
  const out = await generateStructured({ agent, schema, system, prompt, onUsage, signal });
  return validateDiscoveries(out.discoveries, choices, existing, knownTaskIds);
}

/** The figures of `text` that the snippets do not hold: their results' values, their pages' words. */
function unheld(text: string, snippets: readonly EvidenceItem[]): string[] {
  const results = snippets.flatMap((i) => i.result ?? []);
  return unsupportedNumbers(text, results, snippets.filter((i) => !i.result).map((i) => i.content).join("\n"));
}

/**
 * The evidence of a discovery whose cited snippets do not hold its figures: its cited pages' snippets and,
 * for each figure they lack, the one snippet shown that holds it (a figure that several hold must be held by
 * one of those already taken). Undefined when a figure is in no snippet shown, or the choice is not one.
 */
function evidenceHolding(text: string, cited: EvidenceItem[], shown: readonly Choice<EvidenceItem>[]): EvidenceItem[] | undefined {
  const kept = cited.filter((i) => !i.result);
  const missing = unheld(text, kept);
  const holders = new Map(missing.map((figure) => [figure, shown.map((c) => c.value).filter((i) => !unheld(text, [i]).includes(figure))]));
  if ([...holders.values()].some((h) => h.length === 0)) return undefined;
  const taken = [...new Set([...holders.values()].filter((h) => h.length === 1).map((h) => h[0]))];
  const evidence = [...kept, ...taken];
  return taken.length > 0 && unheld(text, evidence).length === 0 ? evidence : undefined;
}

/** Resolves the model's discoveries against the snippets it was shown (by handle), the tasks and the discoveries that exist. */
export function validateDiscoveries(raw: RawDiscovery[], shown: readonly Choice<EvidenceItem>[], existing: ExistingDiscovery[], knownTaskIds: string[]): DiscoveryResult {
  // Keys and task ids are handles of their own; a lone candidate is not taken for any value: a wrong link is worse than none.
  const keys = existing.map((d) => ({ handle: d.key, value: d.key }));
  const tasks = knownTaskIds.map((t) => ({ handle: t, value: t }));
  const result: DiscoveryResult = { changes: [], droppedItemIds: [], unlinked: [], rejected: [], relinked: [] };
  for (const d of raw) {
    const key = d.key === null ? null : (resolveChoice(d.key, keys, { only: false })?.value ?? null);
    // An update or retirement of an unknown key is a new discovery, or nothing.
    const action = key ? d.action === "new" ? "update" : d.action : d.action === "retire" ? null : "new";
    if (!action) continue;
    const evidence = resolveAll(d.evidenceItems, shown);
    result.droppedItemIds.push(...evidence.unresolved);
    let cited = evidence.resolved.map((c) => c.value);
    if (action === "new" && cited.length === 0) result.unlinked.push(d.claim);
    const results = cited.flatMap((i) => i.result ?? []);
    if (action !== "retire" && results.length > 0) {
      const text = `${d.claim}\n${d.evidence}`;
      const quotes = cited.filter((i) => !i.result).map((i) => i.content).join("\n");
      if (unsupportedNumbers(text, results, quotes).length > 0) {
        // A handle misnamed (S3 for S4, or the first one shown) is a naming slip, not a false claim: the
        // snippets shown that hold its numbers — a query's result, or a page's snippet — are its evidence.
        const relinked = evidenceHolding(text, cited, shown);
        if (!relinked) {
          result.rejected.push(d.claim);
          continue;
        }
        cited = relinked;
        result.relinked.push(d.claim);
      }
    }
    const supporting = new Set([...resolveAll(d.supportingTaskIds, tasks).resolved.map((c) => c.value), ...cited.map((i) => i.taskKey)]);
    result.changes.push({
      key, action, claim: d.claim.trim(), evidence: d.evidence, novelty: d.novelty, confidence: d.confidence, supportingTaskIds: [...supporting],
      items: cited.map((i) => ({ taskKey: i.taskKey, itemId: i.id })), reason: d.reason,
    });
  }
  return result;
}
