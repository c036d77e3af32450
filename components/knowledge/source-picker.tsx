"use client";
// Where a run searches: the web, chosen collections, or both (issue 22). Used by the research wizard,
// the Deep Research start page and the Quick answer page; the value goes into the start request.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { knowledgeApi, type Sources } from "@/lib/client/knowledge-api";

export const WEB_ONLY: Sources = { web: true, collections: [] };

export function SourcePicker({ value, onChange, disabled }: { value: Sources; onChange: (next: Sources) => void; disabled?: boolean }) {
  const { data: collections = [] } = useQuery({ queryKey: ["collections"], queryFn: knowledgeApi.list });
  const toggle = (id: string, on: boolean) =>
    onChange({ ...value, collections: on ? [...value.collections, id] : value.collections.filter((c) => c !== id) });
  const nothing = !value.web && value.collections.length === 0;
  return (
    <fieldset className="flex flex-col gap-1.5" data-testid="source-picker" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium">Search in</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={value.web} onChange={(e) => onChange({ ...value, web: e.target.checked })} data-testid="source-web" />
        The web
      </label>
      {collections.map((c) => (
        <label key={c.id} className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={value.collections.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} data-testid={`source-collection-${c.id}`} />
          {c.name}
          <span className="text-muted">({c.documentCount} document{c.documentCount === 1 ? "" : "s"}{c.shared ? ", shared" : ""})</span>
        </label>
      ))}
      {collections.length === 0 ? (
        <p className="text-xs text-muted">
          No collections yet: <Link href="/collections" className="text-accent underline">upload your documents</Link> to search them too.
        </p>
      ) : null}
      {nothing ? <p className="text-xs text-danger" role="alert">Choose the web or at least one collection.</p> : null}
    </fieldset>
  );
}

export function sourcesChosen(value: Sources): boolean {
  return value.web || value.collections.length > 0;
}
