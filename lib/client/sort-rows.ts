// A result table's rows in the order its header asks for (components/deep-research/data-table.tsx).
import type { DrCell } from "./deep-research-state";

export type RowSort = { col: number; dir: "ascending" | "descending" } | null;

/** Row order under a sort: numbers by value, text by its words (natural order), NULL last either way. */
export function sortRows(rows: DrCell[][], sort: RowSort): DrCell[][] {
  if (!sort) return rows;
  const sign = sort.dir === "ascending" ? 1 : -1;
  const text = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const x = a.r[sort.col];
      const y = b.r[sort.col];
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
      const c = typeof x === "number" && typeof y === "number" ? x - y : text.compare(String(x), String(y));
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map(({ r }) => r);
}

