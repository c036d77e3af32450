// Clarification sessions before a Deep Research conversation: questions → answers and a plan →
// approval, or a new plan from feedback (the history kept). A call in the wrong state is a 400
// naming the current status. Each LLM call is a planning call: limited per user (429) and its
// tokens recorded against the user and the session (lib/runs/limits.ts).
import { clarificationPlan, clarificationQuestions, type ClarificationPlan, type ClarificationQuestions } from "./agents/clarification";
import { LlmUnavailableError, StructuredOutputError } from "../ai/errors";
import { createClarificationSession, getClarificationSession, moveClarificationSession, type ClarificationSession } from "../db/clarification";
import { assertResearchConfigured, getEnv } from "../env";
import { AppError } from "../errors";
import { parseJson } from "../db/json";
import { planningUsageOf } from "../db/planning-calls";
import { withinPlanningLimits } from "../runs/limits";

function llmFailure(error: unknown): never {
  if (error instanceof LlmUnavailableError || error instanceof StructuredOutputError) throw new AppError("unavailable:llm", error.message, { cause: error });
  throw error;
}

function wrongState(session: ClarificationSession, wanted: string): never {
  throw new AppError("bad_request:clarification", `This step needs a session in status ${wanted}. Current status: ${session.status}`, { field: "sessionId" });
}

async function ownSession(userId: string, sessionId: string) {
  const session = await getClarificationSession({ id: sessionId, userId });
  if (!session) throw new AppError("not_found:clarification", "Clarification session not found");
  return session;
}

export function sessionView(s: ClarificationSession, usage: { promptTokens: number; completionTokens: number; llmCalls: number }) {
  return {
    ok: true,
    sessionId: s.id,
    status: s.status,
    query: s.query,
    datasets: parseJson<string[]>(s.datasets, []),
    questions: parseJson<ClarificationQuestions["questions"]>(s.questions, []),
    reasoning: s.reasoning,
    answers: parseJson<{ questionIndex: number; answer: string }[]>(s.answers, []),
    plan: parseJson<ClarificationPlan | null>(s.plan, null),
    feedbackHistory: parseJson<unknown[]>(s.feedbackHistory, []),
    usage,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

export async function generateQuestions({ userId, query, datasets = [] }: { userId: string; query: string; datasets?: string[] }) {
  assertResearchConfigured({ llm: true });
  return withinPlanningLimits({ userId, kind: "clarification-questions" }, async ({ onUsage, setSubject }) => {
    const out = await clarificationQuestions({ query, datasets, onUsage }).catch(llmFailure);
    const session = await createClarificationSession({ userId, query, datasets: JSON.stringify(datasets), questions: JSON.stringify(out.questions), reasoning: out.reasoning });
    setSubject(session.id);
    return { ok: true, sessionId: session.id, questions: out.questions, reasoning: out.reasoning };
  });
}

function qaOf(s: ClarificationSession) {
  const questions = parseJson<{ question: string }[]>(s.questions, []);
  const answers = parseJson<{ questionIndex: number; answer: string }[]>(s.answers, []);
  return answers.map((a) => ({ question: questions[a.questionIndex]?.question ?? "", answer: a.answer }));
}

export async function submitAnswers({ userId, sessionId, answers }: { userId: string; sessionId: string; answers: { questionIndex: number; answer: string }[] }) {
  const session = await ownSession(userId, sessionId);
  if (session.status !== "questions_generated") wrongState(session, "questions_generated");
  const count = parseJson<unknown[]>(session.questions, []).length;
  const bad = answers.find((a) => a.questionIndex >= count);
  if (bad) throw new AppError("bad_request:clarification", `answers: questionIndex ${bad.questionIndex} does not exist (there are ${count} questions)`, { field: "answers" });
  assertResearchConfigured({ llm: true });
  const withAnswers = { ...session, answers: JSON.stringify(answers) };
  const plan = await withinPlanningLimits({ userId, kind: "clarification-plan", subjectId: sessionId }, ({ onUsage }) =>
    clarificationPlan({ query: session.query, qa: qaOf(withAnswers), datasets: parseJson<string[]>(session.datasets, []), maxTasks: getEnv().MAX_TASKS_PER_ITERATION, onUsage }).catch(llmFailure));
  const moved = await moveClarificationSession(sessionId, "questions_generated", { status: "plan_generated", answers: JSON.stringify(answers), plan: JSON.stringify(plan) });
  if (!moved) wrongState((await ownSession(userId, sessionId)), "questions_generated");
  return { ok: true, sessionId, plan };
}

export async function planFeedback({ userId, sessionId, approved, feedback }: { userId: string; sessionId: string; approved: boolean; feedback?: string }) {
  const session = await ownSession(userId, sessionId);
  if (session.status !== "plan_generated") wrongState(session, "plan_generated");
  const history = parseJson<unknown[]>(session.feedbackHistory, []);
  const previous = parseJson<ClarificationPlan | null>(session.plan, null) ?? undefined;
  if (approved) {
    const moved = await moveClarificationSession(sessionId, "plan_generated", {
      status: "plan_approved",
      feedbackHistory: JSON.stringify([...history, { at: new Date().toISOString(), approved: true, feedback: feedback ?? null }]),
    });
    if (!moved) wrongState(await ownSession(userId, sessionId), "plan_generated");
    return { ok: true, sessionId, status: "plan_approved", plan: previous };
  }
  assertResearchConfigured({ llm: true });
  const plan = await withinPlanningLimits({ userId, kind: "clarification-feedback", subjectId: sessionId }, ({ onUsage }) =>
    clarificationPlan({ query: session.query, qa: qaOf(session), datasets: parseJson<string[]>(session.datasets, []), feedback, previousPlan: previous, maxTasks: getEnv().MAX_TASKS_PER_ITERATION, onUsage }).catch(llmFailure));
  const moved = await moveClarificationSession(sessionId, "plan_generated", {
    plan: JSON.stringify(plan),
    feedbackHistory: JSON.stringify([...history, { at: new Date().toISOString(), approved: false, feedback, previousPlan: previous }]),
  });
  if (!moved) wrongState(await ownSession(userId, sessionId), "plan_generated");
  return { ok: true, sessionId, status: "plan_generated", plan };
}

export async function getSession({ userId, sessionId }: { userId: string; sessionId: string }) {
  const session = await ownSession(userId, sessionId);
  return sessionView(session, await planningUsageOf({ subjectId: session.id }));
}
