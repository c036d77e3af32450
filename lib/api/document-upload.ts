// Reading one uploaded document from a multipart/form-data body (field "file"): 413 naming the limit
// when the declared or actual size is over KNOWLEDGE_MAX_FILE_BYTES, 415 for another body type.
import { AppError } from "../errors";
import { declaredLength, documentBodyLimit } from "./body-limits";

export async function readUploadedFile(request: Request): Promise<{ name: string; bytes: Uint8Array }> {
  if (!/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    throw new AppError("unsupported_media_type:document", 'Send the document as multipart/form-data with the field "file".');
  }
  const limit = documentBodyLimit();
  // The multipart framing is small: it is allowed 64 KiB beyond the file's limit.
  if ((declaredLength(request.headers.get("content-length")) ?? 0) > limit.maxBytes) throw limit.tooLarge();
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    throw new AppError("bad_request:document", "The multipart body could not be read.", { cause: error });
  }
  const file = form.get("file");
  if (!file || typeof file === "string") throw new AppError("bad_request:document", 'Attach the document in the field "file".', { field: "file" });
  if (file.size > limit.fileBytes) throw limit.tooLarge(file.name);
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
