// Citation verifications of written reports (a tree research's, a Deep Research reply's) and their
// per-sentence verdicts. Each pass's verdicts are saved with the move to the next status in one
// transaction (the first pass's with the repaired report), so that a verification resumed after a
// crash repeats only the pass it was in.
import { db } from "./client";
import { queryDirect } from "./direct";
import { parseStringArray } from "./json";
import { Prisma, type ReportVerification } from "../generated/prisma/client";

export type VerificationSubject = { researchId: string } | { messageId: string };

export interface VerdictRow {
  position: number;
  sentence: string;
  urls: string[];
  /** supported | partial | unsupported | uncited | unverified (no usable verdict: kept and marked) */
  verdict: string;
  quote: string | null;
  quoteUrl: string | null;
  note: string | null;
}

/** The counts kept in columns (claims counts every verdict, the unverified ones too). */
export interface PassCounts {
  claims: number;
  supported: number;
  partial: number;
  unsupported: number;
  uncited: number;
}

const where = (subject: VerificationSubject) => ("researchId" in subject ? { researchId: subject.researchId } : { messageId: subject.messageId });

/** The subject's verification, or null. Plain SQL (lib/db/direct.ts): a queue-mode tree's run job reads it at each look at its nodes. */
export async function findVerification(subject: VerificationSubject): Promise<ReportVerification | null> {
  const column = Prisma.raw("researchId" in subject ? `"researchId"` : `"messageId"`);
  const [row] = await queryDirect<ReportVerification>(
    Prisma.sql`SELECT * FROM "ReportVerification" WHERE ${column} = ${"researchId" in subject ? subject.researchId : subject.messageId}`,
    { dates: ["createdAt", "completedAt"] },
  );
  return row ?? null;
}

/** The verification of a report, created with the report as written if there is none yet. */
export async function openVerification(subject: VerificationSubject, original: string) {
  return db.reportVerification.upsert({ where: where(subject), create: { ...where(subject), original }, update: {} });
}

/** Forgets a verification (the report is being written again). */
export async function deleteVerification(subject: VerificationSubject): Promise<void> {
  await db.reportVerification.deleteMany({ where: where(subject) });
}

export async function verdictsOf(verificationId: string, pass: number): Promise<VerdictRow[]> {
  const rows = await db.claimVerdict.findMany({ where: { verificationId, pass }, orderBy: { position: "asc" } });
  return rows.map(({ position, sentence, urls, verdict, quote, quoteUrl, note }) => ({ position, sentence, urls: parseStringArray(urls), verdict, quote, quoteUrl, note }));
}

/**
 * Saves a pass's verdicts and counts and moves the status, at once (after pass 1 with the repaired
 * report, when there was a repair). `pass1`: pass 1's verdicts saved in the same transaction, with
 * pass 2's (a pass 2 that had nothing left to ask when pass 1 ended).
 */
export async function savePass(
  verificationId: string,
  pass: 1 | 2,
  verdicts: VerdictRow[],
  counts: PassCounts,
  next: { status: "rechecking" | "done"; repaired?: string; removed?: number; rewritten?: number },
  pass1?: { verdicts: VerdictRow[] },
) {
  // The columns only: an unverified claim has no column of its own (the view counts the verdicts).
  const { claims, supported, partial, unsupported, uncited } = counts;
  const passes = [...(pass1 && pass === 2 ? [{ pass: 1, verdicts: pass1.verdicts }] : []), { pass, verdicts }];
  return db.$transaction(async (tx) => {
    await tx.claimVerdict.deleteMany({ where: { verificationId, pass: { in: passes.map((p) => p.pass) } } });
    await tx.claimVerdict.createMany({ data: passes.flatMap((p) => p.verdicts.map((v) => ({ ...v, urls: JSON.stringify(v.urls), verificationId, pass: p.pass }))) });
    return tx.reportVerification.update({
      where: { id: verificationId },
      data: { claims, supported, partial, unsupported, uncited, ...next, completedAt: next.status === "done" ? new Date() : null },
    });
  });
}

/** A research's verification, scoped by owner; `userId` undefined is for the engine and shared links. */
export async function verificationOfResearch({ researchId, userId }: { researchId: string; userId?: string | null }) {
  return db.reportVerification.findFirst({
    where: { researchId, ...(userId === undefined ? {} : { research: { userId } }) },
    include: { verdicts: { orderBy: [{ pass: "asc" }, { position: "asc" }] } },
  });
}

/** A Deep Research reply's verification, scoped by its conversation's owner (undefined: any). */
export async function verificationOfMessage({ messageId, userId }: { messageId: string; userId?: string }) {
  return db.reportVerification.findFirst({
    where: { messageId, ...(userId === undefined ? {} : { message: { conversation: { userId } } }) },
    include: { verdicts: { orderBy: [{ pass: "asc" }, { position: "asc" }] } },
  });
}

/** A verification that could not finish: the report stays as written, and the views say so. */
export async function failVerification(subject: VerificationSubject): Promise<void> {
  await db.reportVerification.updateMany({ where: { ...where(subject), status: { not: "done" } }, data: { status: "failed", completedAt: new Date() } });
}

/** The verification of a conversation's latest verified reply (its last write-up), scoped by owner (undefined: any). */
export async function verificationOfConversation({ conversationId, userId }: { conversationId: string; userId?: string }) {
  return db.reportVerification.findFirst({
    where: { message: { conversationId, ...(userId === undefined ? {} : { conversation: { userId } }) } },
    orderBy: { createdAt: "desc" },
    include: { verdicts: { orderBy: [{ pass: "asc" }, { position: "asc" }] } },
  });
}
