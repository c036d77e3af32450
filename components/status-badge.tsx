import type { QueryStatus, ResearchStatus, WebsiteStatus } from "@/lib/types";

type AnyStatus = ResearchStatus | QueryStatus | WebsiteStatus;

/** The colour of a status, as a CSS variable (also used by the tree and the legend). */
export function statusColor(status: AnyStatus): string {
  switch (status) {
    case "searching":
    case "running":
      return "var(--st-searching)";
    case "scraping":
    case "scraped":
      return "var(--st-scraping)";
    case "analyzing":
      return "var(--st-analyzing)";
    case "completed":
    case "analyzed":
      return "var(--st-completed)";
    case "failed":
      return "var(--st-failed)";
    case "stopped":
    case "cancelled":
      return "var(--st-stopped)";
    case "draft":
    case "pending":
    default:
      return "var(--st-pending)";
  }
}

/** The same colour for text: darker in the light theme, so that a label reads at ≥ 4.5:1. */
export function statusTextColor(status: AnyStatus): string {
  return statusColor(status).replace(/\)$/, "-text)");
}

const ACTIVE = new Set<AnyStatus>(["running", "searching", "scraping", "analyzing"]);
// Ended before finishing: a square (a "stop" sign), so it differs from pending by shape, not colour alone.
const HALTED = new Set<AnyStatus>(["stopped", "cancelled"]);

export function StatusDot({ status, className = "size-2", paused = false }: { status: AnyStatus; className?: string; paused?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 ${HALTED.has(status) ? "rounded-[2px]" : "rounded-full"} ${ACTIVE.has(status) && !paused ? "animate-pulse-dot" : ""} ${className}`}
      style={{ background: paused ? "var(--st-paused)" : statusColor(status) }}
    />
  );
}

/**
 * A status as a pill. `paused`: a running research waiting for its LLM provider, shown as "Paused"
 * (data-status stays "running"; data-paused says so).
 */
export function StatusBadge({ status, className = "", testid, paused = false, title }: { status: AnyStatus; className?: string; testid?: string; paused?: boolean; title?: string }) {
  const color = paused ? "var(--st-paused)" : statusColor(status);
  const text = paused ? "var(--st-paused-text)" : statusTextColor(status);
  return (
    <span
      data-testid={testid}
      data-status={status}
      data-paused={paused ? "true" : undefined}
      title={title}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium capitalize ${className}`}
      style={{
        color: text,
        borderColor: `color-mix(in oklab, ${color} 35%, transparent)`,
        background: `color-mix(in oklab, ${color} 10%, transparent)`,
      }}
    >
      {paused ? <PauseGlyph /> : <StatusDot status={status} className="size-1.5" />}
      {paused ? "Paused" : status}
    </span>
  );
}

function PauseGlyph() {
  return (
    <svg viewBox="0 0 8 8" aria-hidden="true" className="size-2 shrink-0" fill="currentColor">
      <rect x="1" y="1" width="2" height="6" rx="0.5" />
      <rect x="5" y="1" width="2" height="6" rx="0.5" />
    </svg>
  );
}
