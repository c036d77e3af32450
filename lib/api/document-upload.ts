// Reading one uploaded document from a multipart/form-data body (field "file"): 413 naming the limit
// when the declared or actual size is over KNOWLEDGE_MAX_FILE_BYTES, 415 for another body type.
import { getEnv } from "../env";
import { AppError } from "../errors";
import { formatBytes } from "./body";

function tooLarge(max: number, name?: string): AppError {
  const subject = name ? `"${name}" is` : "The upload is";
  return new AppError("payload_too_large:document", `${subject} larger than the limit of ${formatBytes(max)} (KNOWLEDGE_MAX_FILE_BYTES).`, { field: "file" });
}

export async function readUploadedFile(request: Request): Promise<{ name: string; bytes: Uint8Array }> {
  if (!/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    throw new AppError("unsupported_media_type:document", 'Send the document as multipart/form-data with the field "file".');
  }
  const max = getEnv().KNOWLEDGE_MAX_FILE_BYTES;
  // The multipart framing is small: allow it 64 KiB beyond the file's limit.
  if (Number(request.headers.get("content-length")) > max + 64 * 1024) throw tooLarge(max);
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    throw new AppError("bad_request:document", "The multipart body could not be read.", { cause: error });
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw new AppError("bad_request:document", 'Attach the document in the field "file".', { field: "file" });
  if (file.size > max) throw tooLarge(max, file.name);
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
