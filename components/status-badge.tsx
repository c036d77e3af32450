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
    case "cancelled":
    case "draft":
    case "pending":
    default:
      return "var(--st-pending)";
  }
}

const ACTIVE = new Set<AnyStatus>(["running", "searching", "scraping", "analyzing"]);

export function StatusDot({ status, className = "size-2" }: { status: AnyStatus; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 rounded-full ${ACTIVE.has(status) ? "animate-pulse-dot" : ""} ${className}`}
      style={{ background: statusColor(status) }}
    />
  );
}

export function StatusBadge({ status, className = "", testid }: { status: AnyStatus; className?: string; testid?: string }) {
  return (
    <span
      data-testid={testid}
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium capitalize ${className}`}
      style={{
        color: statusColor(status),
        borderColor: `color-mix(in oklab, ${statusColor(status)} 35%, transparent)`,
        background: `color-mix(in oklab, ${statusColor(status)} 10%, transparent)`,
      }}
    >
      <StatusDot status={status} className="size-1.5" />
      {status}
    </span>
  );
}
