// GET /api/runs/:id – one run of any engine (kind, subject, status, attempt, timings, error)
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { ownRun, toRunView } from "@/lib/api/runs";

export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { userId } = await requireCaller(request);
  const { id } = await params;
  return Response.json(toRunView(await ownRun({ id, userId })));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
