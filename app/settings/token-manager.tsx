"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ApiTokenSummary } from "@/lib/auth/api-tokens";
import { relativeTime } from "@/lib/auth/format";
import { callApi } from "./api";

const button = "rounded-lg border border-border bg-surface px-3 py-1.5 text-sm hover:bg-surface-2 disabled:opacity-50";
const input = "rounded-lg border border-border bg-surface px-3 py-1.5 text-sm text-fg";

function tokenState(t: ApiTokenSummary): string {
  if (t.revokedAt) return "revoked";
  if (new Date(t.expiresAt).getTime() <= Date.now()) return "expired";
  return "active";
}

export function TokenManager({ tokens, defaultDays, maxDays }: { tokens: ApiTokenSummary[]; defaultDays: number; maxDays: number }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [days, setDays] = useState(String(defaultDays));
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await callApi<{ token: string; apiToken: ApiTokenSummary }>("/api/tokens", {
        method: "POST",
        body: JSON.stringify({ name, days: Number(days) }),
      });
      setCreated({ name: res.apiToken.name, token: res.token });
      setName("");
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setError(null);
    try {
      await callApi(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <section className="flex flex-col gap-4" aria-labelledby="tokens-heading">
      <div>
        <h2 id="tokens-heading" className="text-lg font-semibold">API tokens</h2>
        <p className="text-sm text-muted">
          Use a token from scripts: <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as you; revoke it when you no longer need it. See the <a href="/api-reference" className="underline" data-testid="api-reference-link">API reference</a>; MCP clients connect to <code>/mcp</code> with a token.
        </p>
      </div>
      <form onSubmit={create} className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1 text-sm">
          Name
          <input className={input} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="e.g. laptop script" data-testid="token-name" />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Valid for (days)
          <input className={`${input} w-24`} type="number" min={1} max={maxDays} value={days} onChange={(e) => setDays(e.target.value)} required data-testid="token-days" />
        </label>
        <button type="submit" className={button} disabled={busy} data-testid="token-create">Create token</button>
      </form>
      {created && (
        <div className="rounded-lg border border-border bg-warn-soft p-3 text-sm" role="status">
          <p className="mb-2">
            Token <strong>{created.name}</strong> — copy it now; it will not be shown again.
          </p>
          <div className="flex items-center gap-2">
            <code className="block flex-1 overflow-x-auto whitespace-nowrap rounded bg-surface px-2 py-1" data-testid="token-value">
              {created.token}
            </code>
            <button type="button" className={button} onClick={() => navigator.clipboard?.writeText(created.token)} data-testid="token-copy">Copy</button>
            <button type="button" className={button} onClick={() => setCreated(null)} data-testid="token-done">Done</button>
          </div>
        </div>
      )}
      {error && <p role="alert" className="text-sm text-danger" data-testid="token-error">{error}</p>}
      {tokens.length === 0 ? (
        <p className="text-sm text-muted">No tokens yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-muted">
            <tr>
              <th className="py-1 font-medium">Name</th>
              <th className="py-1 font-medium">Last used</th>
              <th className="py-1 font-medium">Expires</th>
              <th className="py-1 font-medium">State</th>
              <th className="py-1 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => {
              const state = tokenState(t);
              return (
                <tr key={t.id} className="border-t border-border" data-testid="token-row" data-token-name={t.name} data-state={state}>
                  <td className="py-2">{t.name}</td>
                  <td className="py-2" data-testid="token-last-used" title={t.lastUsedAt ?? undefined}>{relativeTime(t.lastUsedAt)}</td>
                  <td className="py-2" title={t.expiresAt}>{relativeTime(t.expiresAt)}</td>
                  <td className="py-2" data-testid="token-state">{state}</td>
                  <td className="py-2 text-right">
                    {state === "active" && (
                      <button type="button" className={button} onClick={() => revoke(t.id)} data-testid="token-revoke">Revoke</button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
