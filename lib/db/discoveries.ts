// Query functions for Deep Research discoveries and their evidence rows (each points at a stored
// extracted item, so a claim resolves to its quote and URL). A level's discovery changes are saved
// in one transaction with the conversation's discoveredLevel, so re-running the discovery step after a crash is a no-op.
import { db } from "./client";
import type { Discovery, DiscoveryEvidence } from "../generated/prisma/client";

export type { Discovery, DiscoveryEvidence };
export type DiscoveryWithEvidence = Discovery & { evidenceItems: DiscoveryEvidence[] };

export interface DiscoveryChange {
  /** An existing discovery's key (update, merge or retire), or null for a new one. */
  key: string | null;
  action: "new" | "update" | "retire";
  claim: string;
  evidence: string;
  novelty: string;
  confidence: "high" | "medium" | "low";
  supportingTaskIds: string[];
  items: { taskKey: string; itemId: string }[];
  reason: string;
}

export async function discoveriesOf(conversationId: string): Promise<DiscoveryWithEvidence[]> {
  return db.discovery.findMany({ where: { conversationId }, include: { evidenceItems: true }, orderBy: { createdAt: "asc" } });
}

/**
 * Applies a level's changes once: false when the level's discoveries were saved already. Updated or
 * retired discoveries keep their history (what they said before and why it changed).
 */
export async function applyDiscoveryChanges(conversationId: string, level: number, changes: DiscoveryChange[]): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: conversationId, discoveredLevel: { lt: level } }, data: { discoveredLevel: level } });
    if (count === 0) return false;
    const existing = await tx.discovery.findMany({ where: { conversationId } });
    let next = existing.length;
    const at = new Date().toISOString();
    for (const c of changes) {
      const prior = c.key ? existing.find((d) => d.key === c.key) : undefined;
      if (prior) {
        const history = [...(JSON.parse(prior.history) as unknown[]), { at, level, action: c.action, reason: c.reason, previousClaim: prior.claim }];
        await tx.discovery.update({
          where: { id: prior.id },
          data: c.action === "retire"
            ? { status: "retired", history: JSON.stringify(history) }
            : { status: "revised", claim: c.claim, evidence: c.evidence, novelty: c.novelty, confidence: c.confidence, supportingTaskIds: JSON.stringify(c.supportingTaskIds), history: JSON.stringify(history) },
        });
        if (c.action !== "retire") await addEvidence(tx, prior.id, c.items);
        continue;
      }
      if (c.action === "retire") continue;
      const created = await tx.discovery.create({
        data: {
          conversationId, key: `disc-${++next}`, claim: c.claim, evidence: c.evidence, novelty: c.novelty, confidence: c.confidence, level,
          supportingTaskIds: JSON.stringify(c.supportingTaskIds), history: JSON.stringify([{ at, level, action: "new", reason: c.reason }]),
        },
      });
      await addEvidence(tx, created.id, c.items);
    }
    return true;
  });
}

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

async function addEvidence(tx: Tx, discoveryId: string, items: { taskKey: string; itemId: string }[]) {
  const known = new Set((await tx.discoveryEvidence.findMany({ where: { discoveryId }, select: { itemId: true } })).map((e) => e.itemId));
  for (const item of items) {
    if (known.has(item.itemId)) continue;
    known.add(item.itemId);
    await tx.discoveryEvidence.create({ data: { discoveryId, taskKey: item.taskKey, itemId: item.itemId } });
  }
}
