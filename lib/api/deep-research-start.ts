// Reading a start request: JSON through the API's body parser, or multipart/form-data when datasets
// are attached (413 above DEEP_RESEARCH_MAX_UPLOAD_BYTES, checked before and after reading).
import { startSchema, type StartInput } from "../deep-research/schema";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { unstorableMessage } from "../validation/text";
import { formatBytes, parseBody } from "./body";

function tooLarge(max: number): AppError {
  return new AppError("payload_too_large:upload", `The uploaded files are larger than the limit of ${formatBytes(max)} (DEEP_RESEARCH_MAX_UPLOAD_BYTES).`, { field: "files" });
}

export async function readStartRequest(request: Request): Promise<{ input: StartInput; files: File[] }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) return { input: await parseBody(request, startSchema, "deep_research"), files: [] };
  const max = getEnv().DEEP_RESEARCH_MAX_UPLOAD_BYTES;
  // The form's own fields are small: allow them 64 KiB beyond the files' limit.
  if (Number(request.headers.get("content-length")) > max + 64 * 1024) throw tooLarge(max);
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    throw new AppError("bad_request:deep_research", "The multipart body could not be read.", { cause: error });
  }
  const files = form.getAll("files").filter((f): f is File => typeof f !== "string");
  if (files.reduce((sum, f) => sum + f.size, 0) > max) throw tooLarge(max);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  // sources is a JSON field in a form ({"web":false,"collections":["…"]}).
  let sources: unknown;
  try {
    sources = text("sources") === undefined ? undefined : JSON.parse(text("sources")!);
  } catch {
    throw new AppError("bad_request:deep_research", "sources must be JSON such as {\"web\":true,\"collections\":[]}", { field: "sources" });
  }
  const parsed = startSchema.safeParse({ message: text("message") ?? form.get("message") ?? undefined, conversationId: text("conversationId"), researchMode: text("researchMode"), clarificationSessionId: text("clarificationSessionId"), sources });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    throw new AppError("bad_request:deep_research", unstorableMessage(issue, field ?? "body") ?? issue.message, { field });
  }
  return { input: parsed.data, files };
}
