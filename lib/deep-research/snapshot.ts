// A conversation as GET /api/deep-research/conversations/:id and the stream's snapshot show it: the
// world state, the messages, the plan with every task, the discoveries with their evidence resolved
// to stored snippets or stored queries of analysis tasks, and the run guard.
import { getConversation, messagesOf } from "../db/conversations";
import { discoveriesOf } from "../db/discoveries";
import { itemsById, tasksOf } from "../db/research-tasks";
import { getRun } from "../db/runs";
import { queryEvidence } from "./analysis-evidence";
import { replyDraft } from "./drafts";
import { discoveryView, messageView, runGuardView, stateView, taskView, type Snippet } from "./views";

export async function discoveryViews(conversationId: string) {
  const [discoveries, tasks] = await Promise.all([discoveriesOf(conversationId), tasksOf(conversationId)]);
  const snippets = await itemsById(discoveries.flatMap((d) => d.evidenceItems.map((e) => e.itemId)));
  const byId = new Map<string, Snippet>(snippets.map((s) => [s.id, s]));
  return discoveries.map((d) => discoveryView(d, byId, (itemId) => queryEvidence(tasks, itemId)));
}

/** Null when the conversation does not exist or is not the user's. */
export async function conversationSnapshot({ id, userId }: { id: string; userId?: string }) {
  const c = await getConversation({ id, userId });
  if (!c) return null;
  const [messages, tasks, discoveries, run, draft] = await Promise.all([messagesOf(id), tasksOf(id), discoveryViews(id), getRun({ kind: "deep-research", subjectId: id }), replyDraft(id)]);
  return {
    conversationId: c.id,
    state: stateView(c),
    messages: messages.map(messageView),
    plan: tasks.map(taskView),
    discoveries,
    deepResearchRun: runGuardView(c, run, messages.find((m) => m.id === c.rootMessageId)),
    /** The reply being written (in this process or, in queue mode, a worker), its text so far (null otherwise). */
    draft,
  };
}

export type ConversationSnapshot = NonNullable<Awaited<ReturnType<typeof conversationSnapshot>>>;
