"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { relativeTime } from "@/lib/auth/format";
import type { ShareLinkSummary } from "@/lib/auth/share-links";
import { revokeShare, ShareCreateButton } from "@/components/share-panel";

const button = "rounded-lg border border-border bg-surface px-3 py-1.5 text-sm hover:bg-surface-2";

interface ResearchRow {
  id: string;
  prompt: string;
  status: string;
  createdAt: string;
}

function short(text: string): string {
  return text.length > 90 ? `${text.slice(0, 87)}…` : text;
}

export function ShareManager({ shareLinks, researches }: { shareLinks: (ShareLinkSummary & { title: string })[]; researches: ResearchRow[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [sharing, setSharing] = useState<string | null>(null);

  return (
    <section className="flex flex-col gap-4" aria-labelledby="shares-heading">
      <div>
        <h2 id="shares-heading" className="text-lg font-semibold">Shared reports and conversations</h2>
        <p className="text-sm text-muted">
          A share link shows one report, its sources and its query tree — or one Deep Research conversation — to anyone who has it, read-only and without signing in.
          Share a conversation from its page.
        </p>
      </div>
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
      {shareLinks.length === 0 ? (
        <p className="text-sm text-muted">No share links yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-muted">
            <tr>
              <th className="py-1 font-medium">Shared</th>
              <th className="py-1 font-medium">Opened</th>
              <th className="py-1 font-medium">Expires</th>
              <th className="py-1 font-medium">State</th>
              <th className="py-1 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {shareLinks.map((l) => (
              <tr key={l.id} className="border-t border-border" data-testid="share-row" data-active={l.active} data-kind={l.conversationId ? "conversation" : "research"}>
                <td className="py-2" title={l.title}>
                  {l.conversationId ? <span className="mr-1.5 rounded border border-accent/40 px-1 text-[11px] font-medium text-accent">Deep research</span> : null}
                  {short(l.title)}
                </td>
                <td className="py-2">
                  <span data-testid="share-open-count">{l.openCount}</span>× {l.lastOpenedAt ? `(last ${relativeTime(l.lastOpenedAt)})` : ""}
                </td>
                <td className="py-2">{l.expiresAt ? relativeTime(l.expiresAt) : "never"}</td>
                <td className="py-2" data-testid="share-state">{l.revokedAt ? "revoked" : l.active ? "active" : "expired"}</td>
                <td className="py-2 text-right">
                  {l.active && (
                    <button
                      type="button"
                      className={button}
                      onClick={() => revokeShare(l).then(() => router.refresh(), (e: Error) => setError(e.message))}
                      data-testid="share-revoke"
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Share a research</h3>
        {researches.length === 0 ? (
          <p className="text-sm text-muted">No researches yet.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border text-sm">
            {researches.map((r) => (
              <li key={r.id} className="flex flex-col gap-2 py-2" data-testid="share-research-row" data-research-id={r.id}>
                <div className="flex items-center justify-between gap-2">
                  <span title={r.prompt}>
                    {short(r.prompt)} <span className="text-muted">· {r.status}</span>
                  </span>
                  {sharing !== r.id && (
                    <button type="button" className={button} onClick={() => setSharing(r.id)} data-testid="share-open">Share…</button>
                  )}
                </div>
                {sharing === r.id && <ShareCreateButton researchId={r.id} onCreated={() => router.refresh()} />}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
