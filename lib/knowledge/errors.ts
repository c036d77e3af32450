// The reasons a document cannot be indexed, each an AppError whose message names the file, so that an
// upload's response, the collection page and the shared folder's log all say which file and why.
import { AppError } from "../errors";

export function documentError(
  reason: "corrupt" | "encrypted" | "empty" | "too_large" | "unsupported",
  name: string,
  detail: string,
  cause?: unknown,
): AppError {
  const code =
    reason === "too_large"
      ? "payload_too_large:document"
      : reason === "unsupported"
        ? "unsupported_media_type:document"
        : (`bad_request:document_${reason}` as const);
  return new AppError(code, `"${name}": ${detail}`, { field: "file", cause });
}
