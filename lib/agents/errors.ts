import { StructuredOutputError } from "../ai/errors";
import type { SerpQueryDraft } from "./generate-serp-queries";

/**
 * The query generator could not produce `count` distinct queries, even after asking again for the
 * missing ones. Carries the distinct queries it did produce (possibly none), so the run can go on.
 */
export class QueryShortfallError extends StructuredOutputError {
  constructor(
    readonly queries: SerpQueryDraft[],
    readonly count: number,
    repairs: number,
  ) {
    super("query-generator", `planned ${queries.length} of ${count} queries after ${repairs} repair attempts`);
    this.name = "QueryShortfallError";
    this.message = `The query generator planned ${queries.length} of ${count} queries after ${repairs} repair attempts`;
  }
}
