// deep_research: start or continue a Deep Research conversation (POST /api/deep-research/start) and
// return at once with its ids: a conversation runs for many minutes over several iterations, longer
// than a client waits on one call. deep_research_status (GET /api/deep-research/status/:messageId)
// follows it; get_report reads the write-up once there is one.
import { z } from "zod";
import { RESEARCH_MODES, startSchema } from "../../deep-research/schema";
import { deepResearchStatus, startDeepResearch } from "../../deep-research/service";
import type { ToolContext } from "../context";
import { parseWith, sourcesOf, sourcesShape } from "../inputs";
import { reportUri } from "../reports";
import { toolResult } from "../results";
import { noteStarted } from "../started";

export const deepResearchInput = {
  message: z.string().min(1).max(20_000).describe("The research objective, or (with conversationId) your next message in the conversation."),
  conversationId: z.string().min(1).max(100).optional().describe("Continue this conversation (from an earlier deep_research call) instead of starting one."),
  mode: z
    .enum(RESEARCH_MODES)
    .optional()
    .describe("semi-autonomous (default): a few iterations per message; fully-autonomous: iterates until the agent judges the objective met; steering: one iteration, then waits for your next message."),
  ...sourcesShape,
};

export const deepResearchOutput = {
  conversationId: z.string(),
  messageId: z.string().describe("The start's message: pass it to deep_research_status."),
  status: z.enum(["processing", "queued"]),
  deduplicated: z.boolean().describe("True when the conversation was already running: this call joined it and stored nothing."),
  uri: z.string().describe("The conversation's write-up as an MCP resource (once it has one)."),
};

type Args = { message: string; conversationId?: string; mode?: (typeof RESEARCH_MODES)[number]; collections?: string[]; web?: boolean };

export async function deepResearch(args: Args, ctx: ToolContext) {
  const input = parseWith(startSchema, { message: args.message, conversationId: args.conversationId, researchMode: args.mode, sources: sourcesOf(args) }, "deep_research", {
    researchMode: "mode",
    sources: "collections",
  });
  const { body } = await startDeepResearch({ userId: ctx.userId, input });
  noteStarted("deep-research", body.conversationId);
  const structured = {
    conversationId: body.conversationId,
    messageId: body.messageId,
    status: body.status,
    deduplicated: body.deduplicated ?? false,
    uri: reportUri("deep-research", body.conversationId),
  };
  const joined = structured.deduplicated ? "The conversation was already running; this joined it. " : "";
  return toolResult(structured, `${joined}Deep Research ${structured.status} (conversation ${structured.conversationId}, message ${structured.messageId}). Call deep_research_status with the messageId to follow it; get_report reads the write-up.`);
}

export const deepResearchStatusInput = {
  messageId: z.string().min(1).max(100).describe("The messageId deep_research returned."),
};

export const deepResearchStatusOutput = {
  status: z.enum(["queued", "processing", "completed", "failed"]),
  conversationId: z.string(),
  messageId: z.string(),
  progress: z
    .object({ iteration: z.number().nullable(), level: z.number().nullable(), phase: z.string(), label: z.string(), objective: z.string() })
    .optional()
    .describe("While processing: the iteration and phase it is in."),
  paused: z.object({ reason: z.string(), since: z.string() }).nullable().optional().describe("Set while the run waits for its LLM provider."),
  result: z.object({ text: z.string(), suggestedNextSteps: z.array(z.unknown()) }).optional().describe("Once completed: the reply, and what it suggests to do next."),
  error: z.string().optional(),
};

export async function deepResearchStatusTool(args: { messageId: string }, ctx: ToolContext) {
  const s = await deepResearchStatus({ messageId: args.messageId, userId: ctx.userId });
  const structured = {
    status: s.status,
    conversationId: s.conversationId,
    messageId: s.messageId,
    ...(s.status === "processing"
      ? { progress: { iteration: s.progress.iteration ?? null, level: s.progress.level ?? null, phase: s.progress.phase, label: s.progress.label, objective: s.progress.objective }, paused: s.paused }
      : {}),
    ...(s.status === "completed" ? { result: s.result } : {}),
    ...(s.status === "failed" ? { error: s.error } : {}),
  };
  const text =
    s.status === "completed"
      ? `${s.result.text}\n\n(conversation ${s.conversationId}; get_report reads the write-up with its sources)`
      : s.status === "failed"
        ? `Failed: ${s.error}`
        : s.status === "queued"
          ? "Queued: waiting for a worker."
          : `${s.progress.label} (iteration ${s.progress.iteration ?? "?"})${s.paused ? ` — paused: ${s.paused.reason}` : ""}`;
  return toolResult(structured, text);
}
