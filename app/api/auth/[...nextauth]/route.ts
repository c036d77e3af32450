// GET|POST /api/auth/* – Auth.js endpoints (session, csrf, credentials callback, sign-out)
import { handlers } from "@/lib/auth/next-auth";
import { otherMethods } from "@/lib/http";

export const { GET, POST } = handlers;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
