// Calls to the app's own JSON API. Errors keep the server's `{ error, code, field, errors }`.
import type { ResearchItemsPage, ResearchStatus, ResearchSummary, ResearchView } from "@/lib/types";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly field?: string,
    /** Every invalid field of the request (the server's `errors`), for forms that show them all. */
    readonly errors: { field: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A signed-out browser (expired session) goes to the sign-in page and comes back here after. */
export function redirectToSignIn(): void {
  if (typeof window === "undefined") return;
  const back = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      ...init,
      headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
      cache: "no-store",
    });
  } catch {
    throw new ApiError("Could not reach the server. Check your connection and try again.", 0, "network:client");
  }
  if (res.status === 204) return undefined as T;
  if (res.status === 401) redirectToSignIn();
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; code?: string; field?: string; errors?: { field: string; message: string }[] };
    throw new ApiError(b.error ?? `Request failed (${res.status})`, res.status, b.code ?? `http:${res.status}`, b.field, Array.isArray(b.errors) ? b.errors : []);
  }
  return body as T;
}

export interface QuestionsResponse {
  research_id: string;
  followup_questions: string[];
}

export interface StartInput {
  research_id: string;
  initial_prompt: string;
  followup_questions: string[];
  followup_answers: string[];
  depth: number;
  breadth: number;
  /** Where it searches (issue 22); default the web only. */
  sources?: { web: boolean; collections: string[] };
}

export interface StartResponse {
  research_id: string;
  status: ResearchStatus;
  links: ResearchView["links"];
}

/** A quick answer as GET /api/v1/answers lists it. */
export interface AnswerSummary {
  requestId: string;
  question: string;
  status: string;
  createdAt: string;
}

/** The parameters of a list API: status filter, text search, page size and the cursor. */
export interface ListParams {
  status?: string;
  q?: string;
  limit?: number;
  cursor?: string | null;
}

/** A list API's query string; `cursorParam` is the name that API gives its cursor. */
export function listQuery({ status, q, limit, cursor }: ListParams, cursorParam = "cursor"): URLSearchParams {
  const sp = new URLSearchParams();
  if (status) sp.set("status", status);
  if (q) sp.set("q", q);
  if (limit) sp.set("limit", String(limit));
  if (cursor) sp.set(cursorParam, cursor);
  return sp;
}

export interface ResearchListResponse {
  researches: ResearchSummary[];
  next_cursor: string | null;
}

export const api = {
  questions: (input: { initial_prompt: string; num_questions: number }) =>
    request<QuestionsResponse>("/api/research/questions", { method: "POST", body: JSON.stringify(input) }),
  start: (input: StartInput) => request<StartResponse>("/api/research/start", { method: "POST", body: JSON.stringify(input) }),
  get: (id: string) => request<ResearchView>(`/api/research/${encodeURIComponent(id)}`),
  /** A page of the research's extracted items, all or one query's (GET /api/research/:id/items). */
  items: (id: string, { queryId, after }: { queryId?: string; after?: string } = {}) => {
    const p = new URLSearchParams({ limit: "1000" });
    if (queryId) p.set("query_id", queryId);
    if (after) p.set("after", after);
    return request<ResearchItemsPage>(`/api/research/${encodeURIComponent(id)}/items?${p}`);
  },
  list: (params: ListParams) => request<ResearchListResponse>(`/api/research?${listQuery(params)}`),
  /** The caller's quick answers, newest first; the cursor is the last one's `createdAt`. */
  answers: (params: ListParams) => request<{ answers: AnswerSummary[]; next: string | null }>(`/api/v1/answers?${listQuery(params, "before")}`),
  remove: (id: string) => request<void>(`/api/research/${encodeURIComponent(id)}`, { method: "DELETE" }),
  cancel: (id: string) => request<{ status: ResearchStatus }>(`/api/research/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
  /** Continue a failed or cancelled research, or make a paused one retry its LLM provider now. */
  resume: (id: string) => request<StartResponse>(`/api/research/${encodeURIComponent(id)}/resume`, { method: "POST" }),
  /** A new research on a follow-up question, building on what this one found (or on one branch of it). */
  followUp: (id: string, input: { question: string; query_id?: string; depth: number; breadth: number }) =>
    request<StartResponse>(`/api/research/${encodeURIComponent(id)}/follow-up`, { method: "POST", body: JSON.stringify(input) }),
  /** Write the report of a failed or cancelled research from what it found. */
  writeReport: (id: string) => request<StartResponse>(`/api/research/${encodeURIComponent(id)}/write-report`, { method: "POST" }),
  /** A new research with the same prompt, questions and answers, at the same or another depth × breadth. */
  rerun: (id: string, input: { depth?: number; breadth?: number }) =>
    request<StartResponse>(`/api/research/${encodeURIComponent(id)}/rerun`, { method: "POST", body: JSON.stringify(input) }),
  /** A JSON document at an API path the server gave (a research's `links`). */
  json: <T>(path: string) => request<T>(path),
  text: async (path: string): Promise<string | null> => {
    const res = await fetch(path, { cache: "no-store" });
    if (res.status === 404) return null;
    if (res.status === 401) redirectToSignIn();
    if (!res.ok) throw new ApiError(`Request failed (${res.status})`, res.status, `http:${res.status}`);
    return res.text();
  },
};
