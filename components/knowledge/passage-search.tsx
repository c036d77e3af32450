"use client";
// Searches a collection's passages (the search API: full text, hybrid with EMBEDDING_MODEL): ranked
// hits with their document and page or section, the query's words marked; a hit opens the document
// at that passage, highlighted.
import Link from "next/link";
import { useState } from "react";
import { buttonClass } from "@/components/button";
import { knowledgeApi, type PassageHit } from "@/lib/client/knowledge-api";
import { placeLabel, snippet } from "@/lib/client/knowledge-format";

export function PassageSearch({ collectionId }: { collectionId: string }) {
  const [query, setQuery] = useState("");
  const [state, setState] = useState<{ q: string; hits: PassageHit[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (q: string) => {
    setBusy(true);
    setError(null);
    try {
      setState({ q, hits: await knowledgeApi.search(collectionId, q) });
    } catch (e) {
      setError(e instanceof Error ? e.message : "The search failed.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="flex flex-col gap-3" aria-labelledby="passage-search-title">
      <h2 id="passage-search-title" className="sr-only">
        Search the passages
      </h2>
      <form
        role="search"
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const q = query.trim();
          if (q) void run(q);
        }}
      >
        <input
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            if (!e.target.value.trim()) setState(null);
          }}
          placeholder="Search the documents’ text"
          aria-label="Search the documents’ text"
          maxLength={1000}
          data-testid="passage-search-input"
          className="min-w-0 flex-1 rounded-md border border-border bg-surface px-3 py-1.5 text-sm"
        />
        <button type="submit" className={buttonClass("primary", "md")} disabled={busy || !query.trim()} data-testid="passage-search-submit">
          Search
        </button>
      </form>
      {error ? (
        <p className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : null}
      {state ? (
        <div className="flex flex-col gap-2" data-testid="passage-results" aria-live="polite">
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted">
            <p className="min-w-0 flex-1" role="status">
              {state.hits.length === 0 ? `No passage matches “${state.q}”.` : `${state.hits.length} passage${state.hits.length === 1 ? "" : "s"} for “${state.q}”, best first`}
            </p>
            <button
              type="button"
              className={buttonClass("ghost", "sm")}
              onClick={() => {
                setState(null);
                setQuery("");
              }}
            >
              Clear search
            </button>
          </div>
          <ol className="flex flex-col gap-2">
            {state.hits.map((hit) => (
              <li key={hit.id} data-testid="passage-hit">
                <Link
                  href={`/collections/${collectionId}/documents/${hit.documentId}?chunk=${encodeURIComponent(hit.id)}`}
                  className="block rounded-lg border border-border p-3 hover:border-accent hover:bg-surface-2"
                >
                  <span className="flex flex-wrap items-baseline gap-x-2 text-sm">
                    <span className="min-w-0 max-w-full truncate font-medium text-accent">{hit.documentTitle ?? hit.documentName}</span>
                    {placeLabel(hit) ? <span className="min-w-0 max-w-full truncate text-xs text-muted">{placeLabel(hit)}</span> : null}
                  </span>
                  {hit.documentTitle && hit.documentTitle !== hit.documentName ? <span className="block truncate text-xs text-muted">{hit.documentName}</span> : null}
                  <span className="mt-1 block break-words text-sm">
                    {snippet(hit.text, state.q).map((s, i) =>
                      s.match ? (
                        <mark key={i} className="rounded bg-accent-soft px-0.5 text-inherit">
                          {s.text}
                        </mark>
                      ) : (
                        <span key={i}>{s.text}</span>
                      ),
                    )}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
