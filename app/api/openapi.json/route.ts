// GET /api/openapi.json – the API's OpenAPI 3.1 description (public: it describes, it holds no data)
import { otherMethods, route } from "@/lib/http";
import { openApiDocument } from "@/lib/api/openapi/document";

export const GET = route(async () => Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
