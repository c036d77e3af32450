// Request shapes of the collections API.
import { z } from "zod";
import { text } from "../validation/text";

export const collectionNameSchema = z.object({
  name: text({ error: "name is required" }).trim().min(1, "name must not be empty").max(100, "name must be at most 100 characters"),
});

export const searchQuerySchema = z.object({
  q: text({ error: "q is required" }).trim().min(1, "q must not be empty").max(1_000, "q must be at most 1000 characters"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
