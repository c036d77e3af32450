// Strings from users must be well-formed UTF-16: JSON can carry a lone surrogate ("\ud800"), which
// SQLite cannot store as UTF-8 (Prisma: "lone leading surrogate"). Refuse it at the schema.
import { z } from "zod";

/** Marks the issue so that the body parser can name the field in its message. */
const NOT_WELL_FORMED = "not_well_formed";

/** z.string() that refuses unpaired UTF-16 surrogates; chain .trim(), .min(), .max() as usual. */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((value) => value.isWellFormed(), {
    error: "Text must be well-formed Unicode: it contains an unpaired UTF-16 surrogate.",
    params: { reason: NOT_WELL_FORMED },
    abort: true,
  });
}

export function isNotWellFormedIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && (issue.params as { reason?: string } | undefined)?.reason === NOT_WELL_FORMED;
}
