// Quarry's MCP server: the tools, resources and prompts of one connection, for one user. The transports
// (app/mcp/route.ts over Streamable HTTP, scripts/mcp.ts over stdio) authenticate the connection; every
// tool calls the same service functions as the HTTP API, so the same ownership checks (another user's
// id is not found), per-user limits (429 as a tool error with retryAfterSeconds) and usage records hold.
import { McpError, ErrorCode, type CallToolResult, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AppError } from "../errors";
import { toolContext, type Connection, type Extra, type ToolContext } from "./context";
import { answerReport, conversationReport, listReports, researchReport, type Report } from "./reports";
import { toolError } from "./results";
import { deepResearch, deepResearchInput, deepResearchOutput, deepResearchStatusInput, deepResearchStatusOutput, deepResearchStatusTool } from "./tools/deep-research";
import { getReport, getReportInput, getReportOutput, searchDocuments, searchDocumentsInput, searchDocumentsOutput } from "./tools/documents";
import { quickAnswer, quickAnswerInput, quickAnswerOutput } from "./tools/quick-answer";
import { research, researchInput, researchOutput } from "./tools/research";

export const SERVER_INFO = { name: "quarry", title: "Quarry", version: "0.1.0" };

const INSTRUCTIONS = `Quarry is a research engine with cited results.
- quick_answer: a question answered in seconds to a minute, with references and the quotes that support it.
- research: a tree research of a topic to a report with numbered citations; minutes (depth and breadth set the size), with progress notifications; cancel the call to cancel the research.
- deep_research / deep_research_status: a long, iterative research conversation; returns at once, then poll its status.
- search_documents: passages of your own document collections.
- get_report: any research, conversation write-up or answer by id, as Markdown.`;

type Shape = z.ZodRawShape;

interface ToolConfig<I extends Shape, O extends Shape> {
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolAnnotations;
}

/** A tool whose handler gets the call's context, and whose failures become tool errors in the API's shape. */
function registerTool<I extends Shape, O extends Shape>(
  server: McpServer,
  connection: Connection,
  name: string,
  config: ToolConfig<I, O>,
  handler: (args: z.output<z.ZodObject<I>>, ctx: ToolContext) => Promise<CallToolResult>,
): void {
  const callback = async (args: z.output<z.ZodObject<I>>, extra: Extra): Promise<CallToolResult> => {
    connection.onCall?.(1);
    let ctx: ToolContext | undefined;
    try {
      ctx = await toolContext(connection, extra);
      const result = await handler(args, ctx);
      // Its token revoked (or expired) mid-call: the call fails saying so, whatever the tool made of the abort.
      const ended = ctx.credentialEnded();
      return ended ? toolError(new AppError("unauthorized:auth", ended)) : result;
    } catch (error) {
      const ended = ctx?.credentialEnded();
      return toolError(ended ? new AppError("unauthorized:auth", ended) : error);
    } finally {
      ctx?.release();
      connection.onCall?.(-1);
    }
  };
  server.registerTool(name, config, callback as never);
}

/** A resource read's failure: not found (or not the caller's) as the protocol's "resource not found". */
async function readReport(uri: URL, read: () => Promise<Report>) {
  try {
    const report = await read();
    return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: report.markdown }] };
  } catch (error) {
    if (error instanceof AppError && error.type === "not_found") throw new McpError(-32002, error.message, { uri: uri.href });
    if (error instanceof AppError) throw new McpError(ErrorCode.InvalidRequest, error.message, { code: error.code });
    throw error;
  }
}

const variable = (value: string | string[]) => decodeURIComponent(Array.isArray(value) ? value[0] : value);

export function createMcpServer(connection: Connection): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const longRun: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

  registerTool(server, connection, "quick_answer", {
    title: "Quick answer",
    description: "Answers a question with Quarry's answer agent (search, read, reflect), returning the answer with references and the exact quotes that support it, and the tokens used. Typically under a minute; it spends at most its token budget (default 500k), usually a small part of it. Progress is reported per step; cancelling the call cancels the run.",
    inputSchema: quickAnswerInput(),
    outputSchema: quickAnswerOutput,
    annotations: longRun,
  }, quickAnswer);

  registerTool(server, connection, "research", {
    title: "Tree research",
    description: "Researches a topic with a tree of search queries (breadth on the first level, depth levels) and writes a report with numbered citations [n](url) and its list of sources, verified against the pages. Takes minutes: depth 2 × breadth 3 is 9 queries and, by Quarry's own estimate, 30k–1.2M tokens (more pages read, more tokens); each level adds more. Sends progress notifications; cancelling the call cancels the research.",
    inputSchema: researchInput(),
    outputSchema: researchOutput,
    annotations: longRun,
  }, research);

  registerTool(server, connection, "deep_research", {
    title: "Start or continue a Deep Research conversation",
    description: "Starts (or, with conversationId, continues) an iterative Deep Research conversation: planned tasks, literature trees, hypotheses, discoveries with evidence, a cited write-up. Returns its ids at once; it runs for many minutes (several iterations, each like a few tree researches). Follow it with deep_research_status; read the write-up with get_report.",
    inputSchema: deepResearchInput,
    outputSchema: deepResearchOutput,
    annotations: longRun,
  }, deepResearch);

  registerTool(server, connection, "deep_research_status", {
    title: "Deep Research status",
    description: "The status of a deep_research start: its iteration and phase while it runs, then its reply and suggested next steps, or its error. Free (no model call).",
    inputSchema: deepResearchStatusInput,
    outputSchema: deepResearchStatusOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, deepResearchStatusTool);

  registerTool(server, connection, "search_documents", {
    title: "Search your documents",
    description: "Searches your document collections (uploaded PDFs, Word, Markdown, HTML, text; and the shared folder) for passages, each with its document and page or section. Full text, plus embeddings when the server has an embedding model (then a few tokens per query).",
    inputSchema: searchDocumentsInput,
    outputSchema: searchDocumentsOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, searchDocuments);

  registerTool(server, connection, "get_report", {
    title: "Get a report",
    description: "Any research report, Deep Research write-up or answer of yours by id, as Markdown with its numbered citations and sources. Free (no model call).",
    inputSchema: getReportInput,
    outputSchema: getReportOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, getReport);

  // Finished reports as resources; each list shows the caller's own, newest first.
  const listed = (kind: Report["kind"]) => async () => ({
    resources: (await listReports(await connection.userId())).filter((r) => r.kind === kind).map((r) => ({ uri: r.uri, name: r.name, mimeType: "text/markdown" })),
  });
  server.registerResource(
    "research-report",
    new ResourceTemplate("quarry://research/{id}/report", { list: listed("research") }),
    { title: "Research report", description: "A tree research's report (Markdown, numbered citations and sources)", mimeType: "text/markdown" },
    async (uri, { id }) => readReport(uri, async () => researchReport(variable(id), await connection.userId())),
  );
  server.registerResource(
    "deep-research-write-up",
    new ResourceTemplate("quarry://deep-research/{id}/write-up", { list: listed("deep-research") }),
    { title: "Deep Research write-up", description: "A Deep Research conversation's write-up and discoveries (Markdown, numbered citations)", mimeType: "text/markdown" },
    async (uri, { id }) => readReport(uri, async () => conversationReport(variable(id), await connection.userId())),
  );
  server.registerResource(
    "answer",
    new ResourceTemplate("quarry://answer/{requestId}", { list: undefined }),
    { title: "Answer", description: "A quick answer with its references and quotes (Markdown)", mimeType: "text/markdown" },
    async (uri, { requestId }) => readReport(uri, async () => answerReport(variable(requestId), await connection.userId())),
  );

  server.registerPrompt(
    "research_report",
    {
      title: "Research a topic with citations",
      description: "Runs Quarry's tree research on a topic and summarises the report, keeping its citations.",
      argsSchema: { topic: z.string().describe("What to research"), depth: z.string().optional().describe("Levels of the query tree (1–5, default 2)") },
    },
    ({ topic, depth }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Use Quarry's research tool on the topic below${depth ? ` with depth ${depth}` : ""}. Then give me a summary of the report's findings in a few paragraphs, keeping its numbered citations [n], and list the sources you cite with their URLs. Say where the sources disagree or the evidence is thin.\n\nTopic: ${topic}`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    "cited_answer",
    {
      title: "Answer with quotes",
      description: "Answers a question with Quarry's answer agent and shows the quotes behind it.",
      argsSchema: { question: z.string().describe("The question") },
    },
    ({ question }) => ({
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Answer this with Quarry's quick_answer tool, then give me the answer with each reference's title, URL and the exact quote that supports it.\n\nQuestion: ${question}` },
        },
      ],
    }),
  );
  return server;
}
