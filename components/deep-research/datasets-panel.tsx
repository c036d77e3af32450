"use client";
// The conversation's datasets: each loaded file with its table, row count, columns (type, nulls), how
// it was read (format, delimiter, encoding when not UTF-8), its first rows and description; a file that
// could not be loaded with its error.
import { memo } from "react";
import type { DrDataset } from "@/lib/client/deep-research-state";
import { formatBytes } from "@/lib/client/deep-research-files";
import { ResultTable } from "./query-result";
import { datasetReadAs } from "@/lib/client/dataset-read-as";

const DatasetItem = memo(function DatasetItem({ d }: { d: DrDataset }) {
  return (
    <li data-testid="dr-dataset" data-filename={d.filename} data-status={d.status ?? "pending"} className="rounded-lg border border-border bg-surface px-3 py-2 text-sm">
      <details>
        <summary className="cursor-pointer">
          <span className="font-medium">{d.filename}</span>{" "}
          <span className="text-xs text-muted">
            {d.status === "loaded" ? <>table <span className="font-mono">{d.table}</span> · {(d.rowCount ?? 0).toLocaleString("en")} rows · {d.columns?.length ?? 0} columns · <span data-testid="dr-dataset-read-as">read as {datasetReadAs(d.filename, d.readAs)}</span></> : d.status === "failed" ? <span className="text-danger">not loaded</span> : `${formatBytes(d.size)} · loading with the next step`}
          </span>
        </summary>
        {d.status === "failed" ? <p className="mt-1 text-danger" data-testid="dr-dataset-error">{d.error}</p> : null}
        {d.description ? <p className="mt-1 text-muted">{d.description}</p> : null}
        {d.columns?.length ? (
          <ul className="mt-1 flex flex-wrap gap-1 text-xs" data-testid="dr-dataset-columns">
            {d.columns.map((c) => (
              <li key={c.name} className="rounded border border-border px-1.5 py-px"><span className="font-mono">{c.name}</span> <span className="text-muted">{c.type}{c.nulls ? ` · ${c.nulls} nulls` : ""}</span></li>
            ))}
          </ul>
        ) : null}
        {d.previewRows?.rows.length ? <div className="mt-2"><ResultTable columns={d.previewRows.columns} rows={d.previewRows.rows} label={`First rows of ${d.filename}`} /></div> : null}
      </details>
    </li>
  );
});

export const DatasetsPanel = memo(function DatasetsPanel({ datasets }: { datasets: DrDataset[] }) {
  if (datasets.length === 0) return null;
  return (
    <section aria-labelledby="dr-datasets-h" data-testid="dr-datasets-panel">
      <h2 id="dr-datasets-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Datasets</h2>
      <ul className="mt-2 grid gap-2">{datasets.map((d, i) => <DatasetItem key={`${d.filename}-${i}`} d={d} />)}</ul>
    </section>
  );
});
