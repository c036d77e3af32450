// The one error type of the scraping layer: a stable reason for code, a readable sentence for people.
export type ScrapeFailure =
  | "blocked"
  | "invalid_url"
  | "http_status"
  | "timeout"
  | "too_large"
  | "unsupported_type"
  | "too_many_redirects"
  | "network"
  | "empty";

export class ScrapeError extends Error {
  readonly reason: ScrapeFailure;
  /** The HTTP status, for reason "http_status". */
  readonly status?: number;

  constructor(reason: ScrapeFailure, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ScrapeError";
    this.reason = reason;
    this.status = options.status;
  }
}

/** "512 bytes", "64 KB", "5 MB", "1.5 MB": sizes for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** "15 s", "0.3 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 1 : ms % 1000 === 0 ? 0 : 1))} s`;
}
