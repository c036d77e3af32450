// Request bodies of the account, token and share-link endpoints.
import { z } from "zod";
import { text } from "../validation/text";

export const emailSchema = text()
  .trim()
  .toLowerCase()
  .pipe(z.email("Enter a valid email address.").max(254, "Email is too long."));

// bcrypt reads at most 72 bytes; refuse longer passwords rather than silently ignoring the rest.
export const newPasswordSchema = text()
  .min(8, "Use at least 8 characters.")
  .refine((v) => Buffer.byteLength(v, "utf8") <= 72, "Use at most 72 bytes (bcrypt's limit).");

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: text().trim().max(100).optional().transform((v) => v || undefined),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const changePasswordSchema = z.object({
  currentPassword: text().min(1, "Enter your current password.").max(1024),
  newPassword: newPasswordSchema,
});

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
});

// Numbers, not z.coerce.number(): coercion took `true` for 1 day (and "" for 0).
export const createTokenSchema = z.object({
  name: text({ error: "Give the token a name." }).trim().min(1, "Give the token a name.").max(100, "Use at most 100 characters."),
  days: z.number({ error: "Days must be a whole number." }).int("Days must be a whole number.").min(1, "At least 1 day.").optional(),
});
export type CreateTokenInput = z.infer<typeof createTokenSchema>;

const EXPIRY = "expiresInDays must be a whole number of days from 1 to 3650, or null.";

export const createShareSchema = z.object({
  // null or absent: the link does not expire
  expiresInDays: z.number({ error: EXPIRY }).int(EXPIRY).min(1, EXPIRY).max(3650, EXPIRY).nullable().optional(),
});
export type CreateShareInput = z.infer<typeof createShareSchema>;
