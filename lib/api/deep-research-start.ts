// Reading a start request: JSON through the API's body parser, or multipart/form-data when datasets
// are attached (413 above DEEP_RESEARCH_MAX_UPLOAD_BYTES, checked before and after reading).
import { startSchema, type StartInput } from "../deep-research/schema";
import { AppError } from "../errors";
import { unstorableMessage } from "../validation/text";
import { parseBody } from "./body";
import { declaredLength, startUploadLimit } from "./body-limits";

export async function readStartRequest(request: Request): Promise<{ input: StartInput; files: File[] }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) return { input: await parseBody(request, startSchema, "deep_research"), files: [] };
  const limit = startUploadLimit();
  // The form's own fields are small: they are allowed 64 KiB beyond the files' limit.
  if ((declaredLength(request.headers.get("content-length")) ?? 0) > limit.maxBytes) throw limit.tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    throw new AppError("bad_request:deep_research", "The multipart body could not be read.", { cause: error });
  }
  const files = form.getAll("files").filter((f): f is File => typeof f !== "string");
  if (files.reduce((sum, f) => sum + f.size, 0) > limit.fileBytes) throw limit.tooLarge();
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
