// Every validation message of the tree-research API, through the real HTTP server.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "validation", env: { ...fakes.env, MAX_QUESTIONS: "10", MAX_DEPTH: "5", MAX_BREADTH: "10" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

async function expect400(path: string, body: unknown, error: string, field?: string) {
  const res = await app.postJson(path, body);
  const json = (await res.json()) as { error: string; field?: string; code: string };
  assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(json)}`);
  assert.equal(json.error, error);
  if (field) assert.equal(json.field, field);
}

describe("POST /api/research/questions", () => {
  test("rejects a missing, non-string or blank prompt", async () => {
    for (const initial_prompt of [undefined, 42, null, "", "   \n\t"]) {
      await expect400("/api/research/questions", { initial_prompt, num_questions: 3 }, "Initial prompt cannot be empty", "initial_prompt");
    }
  });

  test("rejects a number of questions that is not a positive integer", async () => {
    for (const num_questions of [undefined, 0, -2, 1.5, "3", null, true]) {
      await expect400("/api/research/questions", { initial_prompt: "Solar storage", num_questions }, "Number of questions must be a positive integer", "num_questions");
    }
  });

  test("caps the number of questions with its own message", async () => {
    await expect400("/api/research/questions", { initial_prompt: "Solar storage", num_questions: 11 }, "Number of questions cannot exceed 10", "num_questions");
  });

  test("rejects a body that is not JSON", async () => {
    await expect400("/api/research/questions", "{not json", "Request body must be a JSON object");
  });

  test("writes exactly num_questions questions and saves the draft before replying", async () => {
    for (const [num, override] of [[4, "more"], [3, "fewer"], [2, "exact"]] as const) {
      fakes.llm.configure({ queryCountOverride: override });
      const res = await app.postJson("/api/research/questions", { initial_prompt: "Grid-scale battery storage costs", num_questions: num });
      assert.equal(res.status, 200);
      const json = (await res.json()) as { research_id: string; followup_questions: string[] };
      assert.equal(json.followup_questions.length, num);
      const row = await app.db.research.findUniqueOrThrow({ where: { id: json.research_id } });
      assert.equal(row.status, "draft");
      assert.equal(row.initialPrompt, "Grid-scale battery storage costs");
      assert.deepEqual(JSON.parse(row.followupQuestions), json.followup_questions);
    }
    fakes.llm.configure({ queryCountOverride: "exact" });
  });
});

describe("POST /api/research/start", () => {
  let researchId: string;
  let questions: string[];

  before(async () => {
    const res = await app.postJson("/api/research/questions", { initial_prompt: "Heat pumps in cold climates", num_questions: 2 });
    const json = (await res.json()) as { research_id: string; followup_questions: string[] };
    researchId = json.research_id;
    questions = json.followup_questions;
  });

  const body = (over: Record<string, unknown>) => ({
    research_id: researchId,
    initial_prompt: "Heat pumps in cold climates",
    followup_questions: questions,
    followup_answers: ["Europe", "Homes"],
    depth: 1,
    breadth: 1,
    ...over,
  });

  test("rejects an unknown research id", async () => {
    await expect400("/api/research/start", body({ research_id: "does-not-exist" }), "Unknown research_id: does-not-exist", "research_id");
  });

  test("rejects answers whose count differs from the questions'", async () => {
    await expect400("/api/research/start", body({ followup_answers: ["only one"] }), "Number of answers must match number of questions", "followup_answers");
    await expect400("/api/research/start", body({ followup_answers: ["a", "b", "c"] }), "Number of answers must match number of questions", "followup_answers");
  });

  test("rejects depth and breadth that are not positive integers", async () => {
    for (const depth of [0, -1, 2.5, "2", undefined]) {
      await expect400("/api/research/start", body({ depth }), "Depth must be a positive integer", "depth");
    }
    for (const breadth of [0, -3, 0.5, "3", null]) {
      await expect400("/api/research/start", body({ breadth }), "Breadth must be a positive integer", "breadth");
    }
  });

  test("caps depth and breadth", async () => {
    await expect400("/api/research/start", body({ depth: 6 }), "Depth cannot exceed 5", "depth");
    await expect400("/api/research/start", body({ breadth: 11 }), "Breadth cannot exceed 10", "breadth");
  });

  test("starts once (202 with links), and refuses a second start", async () => {
    const res = await app.postJson("/api/research/start", body({}));
    assert.equal(res.status, 202);
    const json = (await res.json()) as { research_id: string; links: Record<string, string> };
    assert.equal(json.research_id, researchId);
    assert.equal(json.links.stream, `/api/research/${researchId}/stream`);
    const again = await app.postJson("/api/research/start", body({}));
    assert.equal(again.status, 409);
  });

  test("starts in one call without research_id: the research is created with its questions and answers", async () => {
    const before = await app.db.research.count();
    // initial_prompt is required then, and answers must still match the questions given.
    await expect400("/api/research/start", { followup_answers: [], depth: 1, breadth: 1 }, "initial_prompt is required when research_id is not given", "initial_prompt");
    await expect400(
      "/api/research/start",
      { initial_prompt: "Wave power", followup_questions: ["Where?"], depth: 1, breadth: 1 },
      "Number of answers must match number of questions",
      "followup_answers",
    );
    assert.equal(await app.db.research.count(), before, "a refused start leaves no research behind");

    const bare = await app.postJson("/api/research/start", { initial_prompt: "Wave power in Portugal", depth: 1, breadth: 1 });
    assert.equal(bare.status, 202, await bare.clone().text());
    const started = (await bare.json()) as { research_id: string; run_id: string; status: string; links: Record<string, string> };
    assert.equal(started.status, "running");
    assert.equal(started.links.self, `/api/research/${started.research_id}`);
    assert.equal(started.links.run, `/api/runs/${started.run_id}`);
    const row = await app.db.research.findUniqueOrThrow({ where: { id: started.research_id } });
    assert.equal(row.initialPrompt, "Wave power in Portugal");
    assert.deepEqual([JSON.parse(row.followupQuestions), JSON.parse(row.followupAnswers)], [[], []]);
    assert.equal(row.userId, app.user.id);

    const withQa = await app.postJson("/api/research/start", {
      initial_prompt: "Tidal power in France",
      followup_questions: ["Which years?"],
      followup_answers: ["Since 2015"],
      depth: 1,
      breadth: 1,
    });
    assert.equal(withQa.status, 202);
    const qa = await app.db.research.findUniqueOrThrow({ where: { id: ((await withQa.json()) as { research_id: string }).research_id } });
    assert.deepEqual([JSON.parse(qa.followupQuestions), JSON.parse(qa.followupAnswers)], [["Which years?"], ["Since 2015"]]);
  });

  test("unknown research ids are 404 on every read route", async () => {
    for (const p of ["", "/report", "/error-output", "/stream"]) {
      const res = await app.fetch(`/api/research/nope${p}`);
      assert.equal(res.status, 404, p);
      assert.equal(((await res.json()) as { error: string }).error, "Research not found");
    }
  });
});
