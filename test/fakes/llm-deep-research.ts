// What the fake LLM answers for the Deep Research agents. Scenarios are driven by markers in the
// research objective or the user's message, which every prompt carries:
//   #stop-at-N   the continue agent stops at iteration N (else it always continues);
//   #done-at-N   planning in "next" mode proposes nothing from level N on (objective met);
//   #analysis    the initial plan adds an ANALYSIS task (its agent's scenarios: llm-analysis.ts);
//   #analyses-2  with #analysis and #tasks-2 or more: a second one, counting records per category;
//   #tasks-N     plans N tasks (default 2, at most <max_tasks>).
// Snippets, datasets, tasks and discoveries are named by the handles the prompt offers (S1, D1,
// lit-1-2, disc-1). The discovery agent cites real snippet handles from the prompt and always adds
// one invented id, and the literature summary one invented citation, so that the engine's repair is
// exercised.
import { firstWords, intTag, tagContent, taskText, type ChatMessage } from "./llm-parse";
import { analysisReply, datasetDescriptionReply } from "./llm-analysis";
import { sentencesOf } from "./llm-parse";
import { PLANTED_OVERSTATEMENT, PLANTED_UNCITED, PLANTED_UNSUPPORTED, type VerifyScenario } from "./llm-verify";

const marker = (text: string, name: string): number | undefined => {
  const m = new RegExp(`#${name}-(\\d+)`).exec(text);
  return m ? Number(m[1]) : undefined;
};

function topicOf(task: string): string {
  const objective = tagContent(task, "objective") ?? tagContent(task, "query") ?? task;
  const line = /Original objective:\s*(.+)/.exec(objective)?.[1] ?? objective;
  return firstWords(line.replace(/#[\w-]+/g, ""), 6);
}

function levelOf(task: string): number {
  return Number(/Level:\s*(\d+)/.exec(tagContent(task, "objective") ?? "")?.[1] ?? 0);
}

function items(task: string): { id: string; task: string; url: string; content: string }[] {
  return [...task.matchAll(/<item id="([^"]*)" task="([^"]*)" url="([^"]*)">([\s\S]*?)<\s?\/item>/g)].map((m) => ({ id: m[1], task: m[2], url: m[3], content: m[4] }));
}

function plan(task: string) {
  const mode = tagContent(task, "mode") ?? "initial";
  const max = intTag(task, "max_tasks", 3);
  const level = levelOf(task) + 1;
  const topic = topicOf(task);
  const doneAt = marker(task, "done-at");
  if (mode === "next" && doneAt !== undefined && level - 1 >= doneAt) return { suggestedNextSteps: [] };
  const count = Math.min(max, marker(task, "tasks") ?? 2);
  // The loaded datasets' handles ("D1: sales.csv (table sales, …)"); the drafts have a datasets field only when some are offered.
  const loaded = datasetHandles(tagContent(task, "loaded_datasets"));
  const withDatasets = (handles: string[]) => (loaded.length ? { datasets: handles } : {});
  const drafts: { type: string; objective: string; datasets?: string[] }[] = Array.from({ length: count }, (_, i) => ({
    type: "LITERATURE",
    objective: `${topic} evidence line ${mode === "next" ? level + 1 : level}.${i + 1}`,
    ...withDatasets([]),
  }));
  // The ANALYSIS task names every dataset offered, by handle.
  if (mode === "initial" && task.includes("#analysis") && drafts.length > 0) drafts[drafts.length - 1] = { type: "ANALYSIS", objective: `Analyse the uploaded data on ${topic}`, ...withDatasets(loaded) };
  // #analyses-2: a second ANALYSIS task before it, counting records per category (llm-analysis.ts).
  if (mode === "initial" && task.includes("#analyses-2") && drafts.length > 1) drafts[drafts.length - 2] = { type: "ANALYSIS", objective: `Count the uploaded records per category on ${topic}`, ...withDatasets(loaded) };
  return mode === "next" ? { suggestedNextSteps: drafts } : { tasks: drafts };
}

/** The handles of a list of datasets offered as "D1: sales.csv (…)", one a line. */
function datasetHandles(list: string | undefined): string[] {
  return [...(list ?? "").matchAll(/^(D\d+): /gm)].map((m) => m[1]);
}

function discoveries(task: string) {
  const byTask = new Map<string, ReturnType<typeof items>>();
  for (const item of items(task)) byTask.set(item.task, [...(byTask.get(item.task) ?? []), item]);
  const existing = [...task.matchAll(/<discovery key="([^"]*)" status="active"/g)].map((m) => m[1]);
  const out = [...byTask.entries()].map(([taskId, list]) => ({
    key: null as string | null,
    action: "new",
    // A query's item: the claim states the figures of its first result rows, as they stand.
    claim: isQuery(list[0]) ? `Finding of ${taskId}: ${resultRows(list[0])[0]}` : `Finding of ${taskId}: ${list[0].content.slice(0, 80)}`,
    evidence: isQuery(list[0]) ? `${resultRows(list[0]).slice(1, 3).join("; ")}` : list.slice(0, 2).map((i) => i.content.slice(0, 60)).join(" / "),
    novelty: `First evidence from ${taskId}`,
    confidence: list.length > 2 ? "high" : "medium",
    supportingTaskIds: [taskId],
    evidenceItems: [...list.slice(0, 2).map((i) => i.id), `invented-${taskId}:99`],
    reason: "New evidence this level",
  }));
  const firstItem = items(task)[0];
  if (existing.length > 0 && firstItem) {
    out.push({
      key: existing[0], action: "update", claim: `Revised: ${firstItem.content.slice(0, 60)}`, evidence: firstItem.content.slice(0, 60), novelty: "Confirmed by a later level",
      confidence: "high", supportingTaskIds: [firstItem.task], evidenceItems: [firstItem.id], reason: "Later evidence confirms it",
    });
  }
  return { discoveries: out };
}

/** An analysis query's item (its content is its SQL and result), not a page's snippet. */
const isQuery = (item: { content: string }) => item.content.startsWith("SQL: ");

/** A query item's first result row in words: "In the data, region is north and total is 412". */
function rowFinding(item: { content: string }): string | undefined {
  const lines = item.content.split("\n");
  const start = lines.findIndex((l) => l.startsWith("Result ("));
  const [header, first] = [lines[start + 1], lines[start + 2]];
  if (start < 0 || !header || !first) return undefined;
  const values = first.split(" | ");
  return `In the data, ${header.split(" | ").map((column, j) => `${column} is ${values[j]}`).join(" and ")}`;
}

/** The data rows of a query item's result ("north | 412 | 15"), as "north 412 15". */
function resultRows(item: { content: string }): string[] {
  const lines = item.content.split("\n");
  const start = lines.findIndex((l) => l.startsWith("Result ("));
  return lines.slice(start + 2).filter(Boolean).map((l) => l.split(" | ").join(" "));
}

function literature(task: string) {
  const list = items(task).slice(0, 3);
  const lines = list.map((i) => `- ${i.content.slice(0, 120)} [${i.id}]`);
  return { summary: `Summary for ${firstWords(tagContent(task, "objective") ?? "", 6)}:\n${lines.join("\n")}\n- An unsupported aside [made-up:1]` };
}

/**
 * The final write-up (the reply given <snippets>): one sentence of each of the first snippets, as it
 * stands, cited by the snippet's id; the verify scenario plants an unsupported, an overstated and an
 * uncited sentence, as the report writer does (llm-report.ts).
 */
function writeUp(task: string, scenario?: VerifyScenario) {
  const shown = items(tagContent(task, "snippets") ?? "");
  const facts = shown.filter((i) => !isQuery(i)).flatMap((i) => {
    const s = sentencesOf(i.content)[0];
    return s ? [{ id: i.id, sentence: s.replace(/[.!?]+$/, "") }] : [];
  });
  // The first analysis query's first result row, stated in words and cited, as a careful model states the data's finding.
  const query = shown.find(isQuery);
  const finding = query ? rowFinding(query) : undefined;
  // The framing sentence states no fact (the fake uncited-claim finder passes "Iteration N on …" by).
  const lines = [`Iteration ${intTag(task, "iteration", 1)} on ${topicOf(task)}: done. Continuing: ${tagContent(task, "continuing")}.`, "", "## Findings", ""];
  // The last cites an id the prompt did not show as well: the engine drops it.
  lines.push(...facts.slice(0, 4).map((f, i, all) => `- ${f.sentence} [${f.id}]${i === all.length - 1 ? "[invented-snippet:9]" : ""}.`));
  if (query && finding) lines.push(`- ${finding} [${query.id}].`);
  if (facts[0] && scenario?.plantUnsupported) lines.push(`- ${PLANTED_UNSUPPORTED} [${facts[0].id}].`);
  if (facts[0] && scenario?.plantPartial) lines.push(`- ${facts[0].sentence}${PLANTED_OVERSTATEMENT} [${facts[0].id}].`);
  if (scenario?.plantUncited) lines.push(`- ${PLANTED_UNCITED}`);
  return { reply: lines.join("\n") };
}

export function deepResearchReply(agent: string, messages: ChatMessage[], scenario?: VerifyScenario): unknown {
  const task = taskText(messages);
  switch (agent) {
    case "dr-planner":
      return plan(task);
    case "dr-hypothesis": {
      const ids = [...new Set([...task.matchAll(/\[((?:lit|ana)-\d+-\d+)\]/g)].map((m) => m[1]))];
      // Cites its first task inline, as a real model does ("… [lit-2-1]").
      return { hypothesis: `Hypothesis on ${topicOf(task)} at level ${levelOf(task)}${ids.length ? `, as [${ids[0]}] shows` : ""}`, rationale: "The recent tasks agree.", evidenceTaskIds: ids };
    }
    case "dr-reflection":
      return { conversationTitle: `Research: ${topicOf(task)}`, evolvingObjective: `Understand ${topicOf(task)} in depth`, currentObjective: `Deepen ${topicOf(task)} (after level ${levelOf(task)})`, keyInsights: [`Insight of level ${levelOf(task)}`], methodology: "Literature review by levels" };
    case "dr-discovery":
      return discoveries(task);
    case "dr-continue": {
      const iteration = intTag(task, "iteration", 1);
      const stopAt = marker(task, "stop-at");
      const stop = stopAt !== undefined && iteration >= stopAt;
      return { shouldContinue: !stop, confidence: "medium", reasoning: stop ? "Enough for now." : "Open questions remain.", triggerReason: stop ? "diminishing_returns" : "open_questions" };
    }
    case "dr-reply":
      if (tagContent(task, "snippets") !== undefined) return writeUp(task, scenario);
      return { reply: `Iteration ${intTag(task, "iteration", 1)} on ${topicOf(task)}: done. Continuing: ${tagContent(task, "continuing")}.` };
    case "dr-literature":
      return literature(task);
    case "dr-analysis":
      return analysisReply(task);
    case "dr-dataset":
      return datasetDescriptionReply(task);
    case "dr-clarifier":
      return {
        questions: [
          { category: "scope", question: `Which period should the research on ${topicOf(task)} cover?`, priority: "high" },
          { category: "audience", question: "Who will read the results?", priority: "medium", context: "Sets the depth" },
          { category: "data", question: "Do you have data to analyse?", priority: "low" },
        ],
        reasoning: "Scope, audience and data change the plan most.",
      };
    case "dr-plan-writer": {
      const query = firstWords(tagContent(task, "query") ?? "", 6);
      const revised = tagContent(task, "feedback") ? " revised" : "";
      const named = datasetHandles(tagContent(task, "datasets"));
      return { objective: `Refined${revised}: ${query}`, initialTasks: [1, 2].map((n) => ({ type: "LITERATURE", objective: `${query} approved${revised} task ${n}`, ...(named.length ? { datasets: [] } : {}) })) };
    }
    default:
      return undefined;
  }
}
