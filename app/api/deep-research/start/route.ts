// POST /api/deep-research/start – start (or continue) a Deep Research conversation; JSON, or multipart with datasets
import { otherMethods, route } from "@/lib/http";
import { requireCaller } from "@/lib/auth/caller";
import { startDeepResearch } from "@/lib/deep-research/service";
import { readStartRequest } from "@/lib/api/deep-research-start";

export const POST = route(async (request: Request) => {
  const { userId } = await requireCaller(request);
  const { input, files, dispose } = await readStartRequest(request);
  try {
    const { status, body } = await startDeepResearch({ userId, input, files });
    return Response.json(body, { status });
  } finally {
    // The files were copied into the conversation (or refused): their temporary copies go.
    await dispose();
  }
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
