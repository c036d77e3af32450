"use client";
// The collections page: the caller's collections and the shared one; create, rename, re-index and
// delete a collection, and open one: its Documents page (app/collections/[id]) lists, searches and
// uploads its documents.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/button";
import { knowledgeApi, type CollectionSummary } from "@/lib/client/knowledge-api";

export function CollectionsManager() {
  const client = useQueryClient();
  const router = useRouter();
  const { data: collections = [], isLoading } = useQuery({ queryKey: ["collections"], queryFn: knowledgeApi.list });
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (n: string) => knowledgeApi.create(n),
    onSuccess: (created) => {
      setName("");
      setError(null);
      void client.invalidateQueries({ queryKey: ["collections"] });
      // A new collection is empty: open it, where its documents are dropped.
      router.push(`/collections/${created.id}`);
    },
    onError: (e) => setError(e.message),
  });
  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="New collection name"
          aria-label="New collection name"
          maxLength={100}
          data-testid="collection-name"
          className="min-w-0 flex-1 rounded-md border border-border bg-surface px-3 py-1.5 text-sm"
        />
        <button type="submit" className={buttonClass("primary", "md")} disabled={create.isPending} data-testid="collection-create">
          Create
        </button>
      </form>
      {error ? <p className="text-sm text-danger" role="alert">{error}</p> : null}
      {isLoading ? <p className="text-sm text-muted">Loading…</p> : null}
      {!isLoading && collections.length === 0 ? <p className="text-sm text-muted">No collections yet. Create one, then open it and drop your documents into it.</p> : null}
      <ul className="flex flex-col gap-4">
        {collections.map((c) => (
          <CollectionCard key={c.id} collection={c} />
        ))}
      </ul>
    </div>
  );
}

function CollectionCard({ collection }: { collection: CollectionSummary }) {
  const client = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ["collections"] });
  const act = (fn: () => Promise<unknown>, done: string) => () =>
    fn().then(
      () => {
        setMessage(done);
        refresh();
      },
      (e: Error) => setMessage(e.message),
    );
  // The name on its own line (it wraps, never hidden); the actions on the next, wrapping at 390 px.
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-border p-4" data-testid="collection" data-id={collection.id}>
      <div className="min-w-0">
        <Link href={`/collections/${collection.id}`} className="break-words font-medium text-accent hover:underline" data-testid="collection-open">
          {collection.name}
        </Link>
        <p className="text-sm text-muted">
          {collection.documentCount.toLocaleString("en")} document{collection.documentCount === 1 ? "" : "s"}
          {collection.shared ? " · shared, read-only (KNOWLEDGE_DOCS_PATH)" : ""}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link href={`/collections/${collection.id}`} className={buttonClass("secondary", "sm")} aria-label={`Open ${collection.name}`}>
          Open
        </Link>
        {collection.shared ? null : (
          <>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                const next = window.prompt("Rename the collection", collection.name)?.trim();
                if (next && next !== collection.name) void act(() => knowledgeApi.rename(collection.id, next), "Renamed.")();
              }}
            >
              Rename
            </button>
            <button type="button" className={buttonClass("secondary", "sm")} onClick={act(() => knowledgeApi.reindex(collection.id), "Re-indexed.")}>
              Re-index
            </button>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                if (window.confirm(`Delete "${collection.name}" and its ${collection.documentCount} documents?`)) void act(() => knowledgeApi.remove(collection.id), "Deleted.")();
              }}
            >
              Delete
            </button>
          </>
        )}
      </div>
      {message ? <p className="text-sm text-muted" role="status">{message}</p> : null}
    </li>
  );
}
