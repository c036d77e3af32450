// Calls to the Deep Research and clarification API from the browser. Errors keep the server's
// `{error, code, field}` as an ApiError (lib/client/api.ts).
import { ApiError, listQuery, redirectToSignIn, type ListParams } from "./api";
import type { DrMode } from "./deep-research-state";

async function call<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  let res: Response;
  try {
    res = await fetch(path, {
      ...rest,
      ...(json !== undefined ? { body: JSON.stringify(json), headers: { "content-type": "application/json" } } : {}),
      cache: "no-store",
    });
  } catch {
    throw new ApiError("Could not reach the server. Check your connection and try again.", 0, "network:client");
  }
  if (res.status === 401) redirectToSignIn();
  const text = await res.text();
  let body: unknown;
  try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; code?: string; field?: string };
    throw new ApiError(b.error ?? `Request failed (${res.status})`, res.status, b.code ?? `http:${res.status}`, b.field);
  }
  return body as T;
}

/** How much of an upload has been sent: bytes of the request's body (files and form framing). */
export interface UploadProgress { loaded: number; total: number }

/** A multipart POST through XMLHttpRequest, reporting its upload's progress; errors as `call`'s. */
function upload<T>(path: string, form: FormData, onProgress?: (progress: UploadProgress) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress({ loaded: e.loaded, total: e.total });
    xhr.onerror = () => reject(new ApiError("Could not reach the server. Check your connection and try again.", 0, "network:client"));
    xhr.onabort = () => reject(new ApiError("The upload was cancelled.", 0, "network:client"));
    xhr.onload = () => {
      if (xhr.status === 401) redirectToSignIn();
      let body: unknown;
      try { body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined; } catch { body = undefined; }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      const b = (body ?? {}) as { error?: string; code?: string; field?: string };
      reject(new ApiError(b.error ?? `Request failed (${xhr.status})`, xhr.status, b.code ?? `http:${xhr.status}`, b.field));
    };
    xhr.send(form);
  });
}

export interface StartReply { messageId: string; conversationId: string; status: string; pollUrl: string; deduplicated?: boolean }
export interface ClarifyQuestion { category: string; question: string; priority: string | number; context?: string }
export interface ProposedPlan { objective: string; initialTasks: { type: string; objective: string; datasetFilenames?: string[] }[] }

/** A conversation as GET /api/deep-research/conversations lists it. */
export interface ConversationSummary {
  id: string;
  objective: string;
  conversationTitle: string | null;
  researchMode: DrMode;
  currentLevel: number;
  status: "running" | "completed" | "failed";
  createdAt: string;
}

export const drApi = {
  list: (params: ListParams) => call<{ conversations: ConversationSummary[]; nextCursor: string | null }>(`/api/deep-research/conversations?${listQuery(params)}`),
  /**
   * JSON, or multipart when dataset files are attached: sent with XMLHttpRequest (fetch cannot report
   * upload progress), `onProgress` getting the bytes sent of the body's total as they go.
   */
  start(input: { message: string; conversationId?: string; researchMode?: DrMode; clarificationSessionId?: string; files?: File[]; sources?: { web: boolean; collections: string[] } }, onProgress?: (progress: UploadProgress) => void) {
    const { files, ...fields } = input;
    if (files && files.length > 0) {
      const form = new FormData();
      // sources travels as a JSON field in a form.
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
      for (const f of files) form.append("files", f);
      return upload<StartReply>("/api/deep-research/start", form, onProgress);
    }
    return call<StartReply>("/api/deep-research/start", { method: "POST", json: fields });
  },
  stop: (id: string) => call<unknown>(`/api/deep-research/conversations/${encodeURIComponent(id)}/stop`, { method: "POST" }),
  questions: (query: string, datasets?: string[]) =>
    call<{ ok: boolean; sessionId: string; questions: ClarifyQuestion[]; reasoning: string }>("/api/clarification/generate-questions", { method: "POST", json: { query, ...(datasets?.length ? { datasets } : {}) } }),
  answers: (sessionId: string, answers: { questionIndex: number; answer: string }[]) =>
    call<{ ok: boolean; sessionId: string; plan: ProposedPlan }>("/api/clarification/submit-answers", { method: "POST", json: { sessionId, answers } }),
  feedback: (sessionId: string, approved: boolean, feedback?: string) =>
    call<{ ok: boolean; sessionId: string; plan?: ProposedPlan; status?: string }>("/api/clarification/plan-feedback", { method: "POST", json: { sessionId, approved, ...(feedback ? { feedback } : {}) } }),
};
