// The fake LLM's replies to the bench's lean peer (bench/peer/tree-peer.ts): it plans queries named
// like Quarry's ("<topic> aspect 2.1"), so that the fake SearXNG answers both alike; it takes learnings
// from the pages' sentences and writes a report listing them.
import { firstWords, intTag, sentencesOf, tagContent } from "./llm-parse";

const GOAL = /on "([^"]+)"/;

export function peerReply(agent: string, task: string): unknown {
  switch (agent) {
    case "peer-planner": {
      const prompt = tagContent(task, "prompt") ?? task;
      // A branch's prompt carries its query's goal, which names the query.
      const parent = GOAL.exec(prompt)?.[1];
      const count = intTag(task, "count", 3);
      return {
        queries: Array.from({ length: count }, (_, i) => {
          const query = parent ? `${parent}.${i + 1}` : `${firstWords(prompt, 5)} aspect ${i + 1}`;
          return { query, researchGoal: `Find figures, dates and named sources on "${query}", then go deeper into what they leave open.` };
        }),
      };
    }
    case "peer-learner": {
      const query = tagContent(task, "query") ?? "the topic";
      const sentences = [...new Set(sentencesOf(tagContent(task, "contents") ?? ""))];
      const learnings = [...sentences.filter((s) => /\d/.test(s)), ...sentences.filter((s) => !/\d/.test(s))].slice(0, intTag(task, "learnings_count", 3));
      return {
        learnings,
        followUpQuestions: Array.from({ length: intTag(task, "follow_ups", 3) }, (_, i) => `What else is known about ${query} (question ${i + 1})?`),
      };
    }
    case "peer-writer": {
      const learnings = [...(tagContent(task, "learnings") ?? "").matchAll(/<learning>([\s\S]*?)<\/learning>/g)].map((m) => m[1].trim());
      return { reportMarkdown: `# Report\n\n${learnings.map((l) => `- ${l}`).join("\n")}\n` };
    }
    default:
      return undefined;
  }
}
