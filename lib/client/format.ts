// Small display helpers shared by the research pages.

export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return "—";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, "0")}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, "0")}s`;
  return `${sec}s`;
}

export function formatNumber(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n >= 10_000_000 ? 0 : 1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

export function formatRelative(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const diff = Math.round((now - t) / 1000);
  if (diff < 45) return "just now";
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  if (diff < 3600) return rtf.format(-Math.round(diff / 60), "minute");
  if (diff < 86400) return rtf.format(-Math.round(diff / 3600), "hour");
  if (diff < 86400 * 30) return rtf.format(-Math.round(diff / 86400), "day");
  return new Date(t).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

// One formatter for every call, made when the module loads: toLocaleString builds a new Intl
// formatter each time, and the first one loads the locale's data (~10 ms), which should not happen
// while a page renders the data it has just received.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return dateTime.format(t);
}

export function hostname(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** Comparable form of a URL, so a citation matches its source despite a trailing slash or fragment. */
export function normalizeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    let s = u.toString();
    if (s.endsWith("/")) s = s.slice(0, -1);
    return s.replace(/^https?:\/\/(www\.)?/, "");
  } catch {
    return url.trim();
  }
}

/** A duration in seconds, roughly, as value and unit: "40" "s", "12" "min", "1.5" "h". */
function roughDuration(s: number): [string, string] {
  if (s < 90) return [String(Math.max(1, Math.round(s))), "s"];
  if (s < 90 * 60) return [String(Math.round(s / 60)), "min"];
  const h = s / 3600;
  return [h < 10 ? h.toFixed(1).replace(/\.0$/, "") : String(Math.round(h)), "h"];
}

/** A range of durations in seconds: "3–21 min", or "40 s–2 min" when the units differ. */
export function formatSecondsRange(low: number, high: number): string {
  const [a, ua] = roughDuration(low);
  const [b, ub] = roughDuration(high);
  if (ua === ub) return a === b ? `${a} ${ua}` : `${a}–${b} ${ua}`;
  return `${a} ${ua}–${b} ${ub}`;
}

/** US dollars: cents below $10, whole dollars above. */
export function formatUsd(n: number): string {
  if (n > 0 && n < 0.01) return "<$0.01";
  return n < 10 ? `$${n.toFixed(2)}` : `$${Math.round(n).toLocaleString("en-US")}`;
}
