// GET|POST /api/auth/* – Auth.js endpoints (session, csrf, credentials callback, sign-out)
import type { NextRequest } from "next/server";
import { withRequestId } from "@/lib/api/request-id";
import { handlers } from "@/lib/auth/next-auth";
import { otherMethods } from "@/lib/http";

// Auth.js answers for itself; its responses carry the request's x-request-id like every API response.
export const GET = async (request: NextRequest) => withRequestId(await handlers.GET(request), request);
export const POST = async (request: NextRequest) => withRequestId(await handlers.POST(request), request);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
