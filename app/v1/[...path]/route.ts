// /v1/* that no route matches – an OpenAI-shaped 404
import { AppError } from "@/lib/errors";
import { openAiRoute } from "@/lib/api/openai-error";

const notFound = openAiRoute(async (request: Request) => {
  throw new AppError("not_found:api", `Unknown path ${new URL(request.url).pathname}: this API serves /v1/chat/completions, /v1/responses and /v1/models`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
