// Reading a start request: JSON through the API's body parser, or multipart/form-data when datasets
// are attached. A multipart body is parsed as it arrives (busboy): each file part is written straight
// to a temporary file of its own under UPLOADS_DIR/.incoming/ (never held in memory whole), its bytes
// counted as they come, and the start refused with the 413 naming DEEP_RESEARCH_MAX_UPLOAD_BYTES as
// soon as the files pass it (declared lengths over it were refused before, by body-guard.ts). The rest
// of the flow gets File objects backed by the temporary files (read lazily from disk); `dispose()`
// removes them once the start is done with them, and a failed or refused read leaves none behind.
import { randomBytes } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { startSchema, type StartInput } from "../deep-research/schema";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { unstorableMessage } from "../validation/text";
import { parseBody } from "./body";
import { declaredLength, formatBytes, MULTIPART_ALLOWANCE, startUploadLimit } from "./body-limits";

export interface StartRequest {
  input: StartInput;
  files: File[];
  /** Removes the request's temporary files (call once the start has stored or refused them). */
  dispose(): Promise<void>;
}

const nothing = async () => undefined;

export async function readStartRequest(request: Request): Promise<StartRequest> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) return { input: await parseBody(request, startSchema, "deep_research"), files: [], dispose: nothing };
  const limit = startUploadLimit();
  // The form's own fields are small: they are allowed 64 KiB beyond the files' limit.
  if ((declaredLength(request.headers.get("content-length")) ?? 0) > limit.maxBytes) throw limit.tooLarge();
  const form = await readMultipart(request, type);
  try {
    return { input: startInput(form.fields), files: form.files, dispose: form.dispose };
  } catch (error) {
    await form.dispose();
    throw error;
  }
}

function startInput(fields: Map<string, string>): StartInput {
  const text = (name: string) => {
    const v = fields.get(name);
    return v !== undefined && v !== "" ? v : undefined;
  };
  // sources is a JSON field in a form ({"web":false,"collections":["…"]}).
  let sources: unknown;
  try {
    sources = text("sources") === undefined ? undefined : JSON.parse(text("sources")!);
  } catch {
    throw new AppError("bad_request:deep_research", "sources must be JSON such as {\"web\":true,\"collections\":[]}", { field: "sources" });
  }
  const parsed = startSchema.safeParse({ message: text("message") ?? fields.get("message") ?? undefined, conversationId: text("conversationId"), researchMode: text("researchMode"), clarificationSessionId: text("clarificationSessionId"), sources });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    throw new AppError("bad_request:deep_research", unstorableMessage(issue, field ?? "body") ?? issue.message, { field });
  }
  return parsed.data;
}

interface Multipart {
  /** Each text field's first value (as FormData.get). */
  fields: Map<string, string>;
  /** The "files" parts, in order. */
  files: File[];
  dispose(): Promise<void>;
}

/** The most text fields a start's form may have (it has five). */
const MAX_FIELDS = 50;

/** A request's temporary folder untouched for this long was left by a process that stopped mid-upload (a body may take API_BODY_TIMEOUT_MS, 5 minutes at most, between its bytes). */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;

/**
 * Removes the temporary folders of starts that a stopped process left under UPLOADS_DIR/.incoming/ (a
 * crash mid-upload never reaches `dispose`): those in which nothing was written for ABANDONED_UPLOAD_MS,
 * so that another instance's upload under way is left alone. Run when the server starts; returns how
 * many were removed.
 */
export async function sweepAbandonedUploads(now = Date.now()): Promise<number> {
  const incoming = path.join(/*turbopackIgnore: true*/ getEnv().UPLOADS_DIR, ".incoming");
  const entries = await fs.readdir(incoming).catch(() => [] as string[]);
  let removed = 0;
  for (const name of entries) {
    const dir = path.join(incoming, name);
    try {
      const files = await fs.readdir(dir).catch(() => [] as string[]);
      const times = await Promise.all([dir, ...files.map((f) => path.join(dir, f))].map((p) => fs.stat(p).then((s) => s.mtimeMs, () => 0)));
      if (now - Math.max(...times) < ABANDONED_UPLOAD_MS) continue;
      await fs.rm(dir, { recursive: true, force: true });
      removed += 1;
    } catch (error) {
      console.error(`[quarry] could not remove the abandoned upload ${dir}:`, error);
    }
  }
  return removed;
}

async function readMultipart(request: Request, contentType: string): Promise<Multipart> {
  const env = getEnv();
  const limit = startUploadLimit(env);
  const incoming = path.join(/*turbopackIgnore: true*/ env.UPLOADS_DIR, ".incoming");
  await fs.mkdir(incoming, { recursive: true });
  const dir = await fs.mkdtemp(path.join(incoming, "start-"));
  const dispose = () => fs.rm(dir, { recursive: true, force: true });
  if (!request.body) {
    await dispose();
    throw new AppError("bad_request:deep_research", "The multipart body could not be read: it is empty.");
  }
  let parser: busboy.Busboy;
  try {
    // The name as sent, read as UTF-8 (as browsers send it): checkUploadNames drops directories and
    // names "." and ".." in its own words.
    parser = busboy({ headers: { "content-type": contentType }, preservePath: true, defParamCharset: "utf8", limits: { fieldSize: MULTIPART_ALLOWANCE, fields: MAX_FIELDS } });
  } catch (error) {
    await dispose();
    throw new AppError("bad_request:deep_research", "The multipart body could not be read.", { cause: error });
  }
  const body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  const fields = new Map<string, string>();
  const parts: { name: string; file: string; done: Promise<void> }[] = [];
  let received = 0;
  // Parts past DATASET_MAX_FILES are counted but not written: the start is refused for them (checkUploadNames).
  let unwritten = 0;
  let failure: unknown;
  let fail: (error: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    fail = (error) => {
      if (failure !== undefined) return;
      failure = error;
      body.unpipe(parser);
      body.destroy();
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new AppError("bad_request:deep_research", `${name} is longer than ${formatBytes(MULTIPART_ALLOWANCE)}.`, { field: name }));
      else if (!fields.has(name)) fields.set(name, value);
    });
    parser.on("fieldsLimit", () => fail(new AppError("bad_request:deep_research", `The form has more than ${MAX_FIELDS} fields.`)));
    parser.on("file", (name, stream, info) => {
      stream.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit.fileBytes) {
          stream.destroy();
          fail(limit.tooLarge());
        }
      });
      if (name !== "files" || failure !== undefined || parts.length >= env.DATASET_MAX_FILES) {
        if (name === "files" && failure === undefined) unwritten += 1;
        stream.resume();
        return;
      }
      // An exclusive name of its own; the user's name is kept for the File.
      const file = path.join(dir, `${String(parts.length).padStart(4, "0")}-${randomBytes(4).toString("hex")}`);
      const done = pipeline(stream, createWriteStream(file, { flags: "wx" })).catch((error: unknown) => {
        fail(failure ?? new AppError("bad_request:deep_research", "The uploaded file could not be stored.", { field: "files", cause: error }));
      });
      parts.push({ name: info.filename ?? "", file, done });
    });
    parser.on("error", (error) => fail(new AppError("bad_request:deep_research", "The multipart body could not be read.", { cause: error })));
    parser.on("close", resolve);
    body.on("error", (error) => fail(new AppError("bad_request:deep_research", "The multipart body could not be read.", { cause: error })));
    body.pipe(parser);
  });
  try {
    await finished;
    await Promise.all(parts.map((p) => p.done));
    if (failure !== undefined) throw failure;
    const files: File[] = [];
    for (const p of parts) files.push(new File([await openAsBlob(p.file)], p.name));
    for (let i = 0; i < unwritten; i++) files.push(new File([], `unwritten-${i}`));
    return { fields, files, dispose };
  } catch (error) {
    // Let the writes that are still open end before their files are removed.
    await Promise.allSettled(parts.map((p) => p.done));
    await dispose();
    throw error;
  }
}
