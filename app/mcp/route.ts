// GET|POST|DELETE /mcp – Quarry's MCP server over Streamable HTTP (bearer API token; lib/mcp/http.ts)
import { otherMethods } from "@/lib/http";
import { handleMcpRequest } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

export const GET = handleMcpRequest;
export const POST = handleMcpRequest;
export const DELETE = handleMcpRequest;

export const { PUT, PATCH, OPTIONS } = otherMethods("GET", "POST", "DELETE");
