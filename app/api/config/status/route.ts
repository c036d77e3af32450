// GET /api/config/status – configuration problems to show in a banner (variable names only, no values)
import { configProblems } from "@/lib/env";
import { otherMethods, route } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json({ problems: configProblems() }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
