"use client";
// Share links of one research or Deep Research conversation: create (the link is shown once), see
// opens, revoke. Mount <SharePanel researchId=… /> (or conversationId=…) on its page; Settings uses
// ShareCreateButton.
import { useCallback, useEffect, useState } from "react";
import type { ShareLinkSummary } from "@/lib/auth/share-links";

/** What a link opens: exactly one of the two. */
export type ShareTarget = { researchId: string; conversationId?: never } | { conversationId: string; researchId?: never };

/** The share-links collection of a research or conversation. */
function sharesUrl(t: ShareTarget | Pick<ShareLinkSummary, "researchId" | "conversationId">): string {
  return t.researchId
    ? `/api/research/${encodeURIComponent(t.researchId)}/shares`
    : `/api/deep-research/conversations/${encodeURIComponent(t.conversationId!)}/shares`;
}

const button = "rounded-lg border border-border bg-surface px-3 py-1.5 text-sm hover:bg-surface-2 disabled:opacity-50";

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, headers: { "Content-Type": "application/json" }, cache: "no-store" });
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok) throw new Error(body?.error ?? `Request failed (${res.status}).`);
  return body as T;
}

export function revokeShare(link: Pick<ShareLinkSummary, "id" | "researchId" | "conversationId">): Promise<unknown> {
  return call(`${sharesUrl(link)}/${encodeURIComponent(link.id)}`, { method: "DELETE" });
}

export function ShareCreateButton({ onCreated, ...target }: ShareTarget & { onCreated?: () => void }) {
  const [expires, setExpires] = useState("30");
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const res = await call<{ path: string }>(sharesUrl(target), {
        method: "POST",
        body: JSON.stringify({ expiresInDays: expires === "never" ? null : Number(expires) }),
      });
      setUrl(new URL(res.path, window.location.origin).toString());
      onCreated?.();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <select
          className="rounded-lg border border-border bg-surface px-2 py-1.5 text-sm text-fg"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          aria-label="Link expires after"
          data-testid="share-expiry"
        >
          <option value="1">Expires in 1 day</option>
          <option value="7">Expires in 7 days</option>
          <option value="30">Expires in 30 days</option>
          <option value="never">Never expires</option>
        </select>
        <button type="button" className={button} onClick={create} disabled={busy} data-testid="share-create">Create share link</button>
      </div>
      {url && (
        <div className="rounded-lg border border-border bg-warn-soft p-2 text-sm" role="status">
          <p className="mb-1">
            {target.conversationId
              ? "Anyone with this link can read the conversation: its replies, plan, hypothesis and discoveries with their quotes."
              : "Anyone with this link can read the report, its sources and its query tree."}{" "}
            Copy it now; it will not be shown again.
          </p>
          <div className="flex items-center gap-2">
            <code className="block flex-1 overflow-x-auto whitespace-nowrap rounded bg-surface px-2 py-1" data-testid="share-url">{url}</code>
            <button type="button" className={button} onClick={() => navigator.clipboard?.writeText(url)}>Copy</button>
          </div>
        </div>
      )}
      {error && <p role="alert" className="text-sm text-danger" data-testid="share-error">{error}</p>}
    </div>
  );
}

export function SharePanel(target: ShareTarget) {
  const [links, setLinks] = useState<ShareLinkSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const url = sharesUrl(target);
  const load = useCallback(() => {
    call<{ shareLinks: ShareLinkSummary[] }>(url)
      .then((res) => setLinks(res.shareLinks))
      .catch((e: Error) => setError(e.message));
  }, [url]);
  useEffect(load, [load]);

  return (
    <section className="flex flex-col gap-3" data-testid="share-panel">
      <h2 className="text-base font-semibold">Share</h2>
      <ShareCreateButton {...target} onCreated={load} />
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
      {links && links.length > 0 && (
        <ul className="flex flex-col gap-1 text-sm">
          {links.map((l) => (
            <li key={l.id} className="flex items-center justify-between gap-2" data-testid="share-row" data-active={l.active}>
              <span>
                Created {new Date(l.createdAt).toLocaleDateString()} · opened <span data-testid="share-open-count">{l.openCount}</span>×
                {l.revokedAt ? " · revoked" : l.active ? (l.expiresAt ? ` · expires ${new Date(l.expiresAt).toLocaleDateString()}` : "") : " · expired"}
              </span>
              {l.active && (
                <button type="button" className={button} onClick={() => revokeShare(l).then(load, (e: Error) => setError(e.message))} data-testid="share-revoke">
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default SharePanel;
