// Issue 51's targets against the misbehaving model (test/fakes/llm-misbehave.ts): every engine — a tree
// research with its follow-up questions, report and verification; a Deep Research iteration with a CSV
// uploaded; an answer — run end to end under every mode, IN THIS PROCESS (no build, no server: the
// engines' service functions against the loopback fakes and a test database; test/helpers/misbehaving-runs.ts).
//   Under every mode: every run completes, and no reasoning ("<think", "</think>", the marker planted in
//   the fake's reasoning) is in anything a user sees: report, answer, messages, write-up, the views the
//   API serves, the Markdown export, nor anywhere in the database.
//   Under the fenced model (every Markdown reply in a code fence): the report and the write-up keep their
//   citations and are verified; no reply is stored in a fence.
//   Under the loose-json model (trailing commas, comments, raw line breaks in strings, bare keys, Python's
//   literals), the wrapper model, the bare-list one, bare-strings (a page read's items as their texts alone, their
//   tags left out: each query then chooses from them), nulls (an empty text or list sent as null or left out: then
//   every citation is judged too), json-lines (a list's items one after another with no list around them) and other-keys (keys in
//   snake_case or Title Case for camelCase): every reply is read without a repair request.
//   Under the no-schema server (a 400 to response_format json_schema, as DeepSeek's API): one request is
//   rejected, every later structured call goes as json_object, every engine completes.
//   Under the cut-json server (every long JSON reply cut at its output limit, its repairs too): each is
//   continued and read whole, and every engine completes.
//   Under the loop model (a long text reply repeating its last line until the output limit, and on when asked to go
//   on): the report and the write-up are not continued, and keep the line at most twice.
//   Under the cut-off server (long text replies cut at its output limit): reports and write-ups are
//   continued until whole, with nothing repeated.
//   Under the no-usage server (no token counts, in replies or streams): every engine's tokens are estimated.
//   Under the no-stream-options server (a 400 to stream_options, as older Azure API versions): one stream
//   is rejected, every later one goes without it, every engine completes.
//   Under the no-system server (a 400 to any system message, as Gemma 2's template): one request is
//   rejected, every later call sends its system prompt in the user message, every engine completes.
//   Under the reasoning-params server (OpenAI's 400s to max_tokens, temperature, top_p and the penalties, as for
//   a reasoning model under a deployment's name): each is refused once, then max_tokens goes as
//   max_completion_tokens and the sampling settings are left out; every engine completes.
//   Under the hidden-reasoning model (5,000 tokens of unsent thought before every reply, counted in the limit): the
//   answer agent's capped calls are given room to think after the first one left empty.
//   Under the error-in-200 server (every 4th request answered 200 with an error body, as OpenRouter's upstream
//   failures, and every other long stream failing so mid-reply): each is retried as the HTTP error it reports,
//   a stream that failed mid-reply is continued from what it sent, whole and nothing repeated, and every engine
//   completes.
//   Under the ignores-format server (response_format ignored, as Anthropic's OpenAI-compatible endpoint): after two
//   calls whose repair showed the schema, it goes in the system prompt, and no reply needs a repair after.
//   Under the half-open server (every reply in reasoning_content, its content null, as vLLM's reasoning parsers
//   send a reply without </think>): each is read from there, none asked again, every engine completes.
//   Under the silent-cut server (a prompt longer than its window cut to its end and answered without its
//   instructions, as Ollama does past num_ctx): the cut is learned from the count, the reply is never taken (a
//   streamed report is written again, its draft restarted), and every later prompt is held to the window, keeping
//   what its task needs (a question, a table's columns, whole lines of sources): every engine still cites.
//   Under the sql-dialect model (the analysis's SQL in a code fence, after a label, with MySQL's backticks): every
//   query runs.
//   Under the references model (the report cites by number into its own reference list): its citations
//   are kept and judged. Under cite-styles (the report and the write-up cite the sources' handles in the model's
//   own styles: "(S2)", "[citation:2]", "【2†source】", ranges…): the same.
//   Under sources-lines (a paragraph's citations on a "Sources:" line under it): they cover its sentences, judged.
//   Under cite-after (citations right after the full stop, no space): each stays with its sentence, kept and judged.
//   Under uncited (the report and the write-up cite nothing until told so): each is written once more, told so, and
//   stored cited.
//   Under miscite (every third sentence of the report cited to the next source): each is cited to the source that says
//   it and judged again, kept supported.
//   Under paragraph-cites (each prose paragraph cited once, at its end): its sentences are judged against that citation,
//   none flagged as an uncited fact.
//   Under tables (the report's and the write-up's cited list items set out as "| Finding | Source |"): each row is a
//   claim cited by its Source cell, kept and judged.
//   Under language-drift (the write-up and the answer in Chinese for English prompts, the report from its last paragraph on,
//   as Qwen models drift):
//   each writer is told the user's language by name; each text is asked for again once, told which language it was in,
//   and what is stored is in the user's.
//   Under the generic model (valid replies in its own words, none of the ids it was given): the tree
//   report keeps every citation not judged unsupported, its quotes (words reordered) are found in their pages (the
//   claims judged, the answer referenced), ANALYSIS tasks run when the dataset loaded, and
//   the verification view shows exactly the cited sentences of the stored report.
// Modes run one after another in one process, the fakes without latency.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MISBEHAVE_MODES } from "../fakes";
import { loopLine } from "../fakes/llm-misbehave";
import { startMisbehaveHarness, type Engine, type EngineRun, type ModeRun } from "../helpers/misbehaving-runs";

const harness = await startMisbehaveHarness({ depth: 2, breadth: 2 });
after(() => harness.stop());

const ENGINES: Engine[] = ["tree", "deep-research", "answer"];
const describeRun = (r: EngineRun) => `${r.engine} ended ${r.status}${r.error ? `: ${r.error}` : ""}`;

for (const mode of MISBEHAVE_MODES) {
  describe(`misbehaving model "${mode}"`, () => {
    let result: ModeRun;
    const runOf = (engine: Engine) => {
      const run = result.runs.find((r) => r.engine === engine);
      assert.ok(run, `${engine} did not run`);
      return run;
    };
    before(async () => {
      result = await harness.run(mode);
    });

    test("the model misbehaved", () => {
      assert.ok(result.misbehaved > 0, `${result.misbehaved} of ${result.llmCalls} replies changed`);
    });

    for (const engine of ENGINES) {
      test(`${engine}: the run completes`, () => {
        const run = runOf(engine);
        assert.ok(run.completed, describeRun(run));
      });

      test(`${engine}: no reasoning in what the user sees`, () => {
        assert.deepEqual(runOf(engine).leaks, []);
      });
    }

    test("no reasoning stored anywhere in the database", () => {
      assert.deepEqual(result.storedLeaks, []);
    });

    {
      // The write-up states the analysis's finding citing its query, verified against the query's result rows (it
      // cited only pages before: a finding of the data was an uncited claim, and a plan of analyses alone cited nothing).
      test("deep-research: the write-up cites the analysis query it states, and the citation is judged against its result", () => {
        const run = runOf("deep-research");
        assert.ok((run.analysisRun ?? 0) > 0, "no ANALYSIS task ran");
        assert.ok(run.citations, "no verified write-up");
        assert.ok(run.citations.queryCited > 0, "no sentence of the write-up cites a query");
        assert.ok(run.citations.queryJudged > 0, "no citation of a query was judged supported");
      });
    }

    if (mode === "references") {
      test("tree: the report's numbered citations to its own reference list are kept and judged", () => {
        const c = runOf("tree").citations;
        assert.ok(c, "the tree wrote no report");
        assert.ok(c.writtenCited > 0, "as written, it cites nothing");
        assert.deepEqual(c.lost, []);
        assert.deepEqual(c.unlinked, [], "every marker made a link, the model's list gone");
        assert.ok(c.judged > 0, "its citations were judged");
      });
    }

    if (mode === "cut-json") {
      // Every JSON reply past 200 characters is cut, its repairs too: only continuing it gets it whole.
      test("JSON replies cut at the output limit are continued, and read whole", () => {
        assert.ok(result.repairs > 0, "no reply was continued");
        const tree = runOf("tree");
        assert.ok((tree.citations?.judged ?? 0) > 0, "the tree's report was judged");
      });
    }

    if (mode === "truncated") {
      // The counter of repairs counts: a reply cut mid-object is asked again.
      test("replies cut mid-object are repaired", () => {
        assert.ok(result.repairs > 0, `${result.repairs} repair requests`);
      });
    }

    if (mode === "loose-json" || mode === "wrapper" || mode === "bare-list" || mode === "bare-strings" || mode === "json-lines" || mode === "other-keys" || mode === "nulls" || mode === "retyped" || mode === "schema-frame" || mode === "worded-enums" || mode === "list-text" || mode === "tool-call" || mode === "grouped") {
      // Loose JSON, an object in a wrapper (as an object or a string of JSON) and a bare list, is read as it is: no
      // call is asked again (each repair is a call more, and a model that writes so may write so again).
      test("every reply is read without a repair", () => {
        assert.equal(result.repairs, 0, `${result.repairs} repair requests: ${result.repairedAgents.join(" | ")}`);
      });
    }

    if (mode === "bare-strings") {
      // Items with their query tags left out are not taken as serving no query: each query of the read chooses
      // from them (they were all kept, untagged, and no query got any before).
      test("tree: every query that reached a page gets items from it", () => {
        const run = runOf("tree");
        assert.ok(run.queriesWithoutItems, "the tree was not audited");
        assert.deepEqual(run.queriesWithoutItems, []);
      });
    }

    if (mode === "no-stream-options") {
      // The server's 400 to stream_options is taken once: every later stream goes without it.
      test("one stream with stream_options rejected, then none sent", () => {
        assert.equal(result.misbehaved, 1, `${result.misbehaved} requests rejected`);
      });
    }

    if (mode === "no-system") {
      // The server's 400 to a system message is taken once: every later call sends the system prompt in the user message.
      test("one request with a system message rejected, then none sent", () => {
        assert.equal(result.misbehaved, 1, `${result.misbehaved} requests rejected`);
      });
    }

    if (mode === "no-schema") {
      // The server's 400 to json_schema is taken once: every later structured call goes as json_object.
      test("one json_schema request rejected, then every structured call goes as json_object", () => {
        assert.equal(result.misbehaved, 1, `${result.misbehaved} requests rejected`);
        assert.equal(result.repairs, 0);
      });
    }

    if (mode === "reasoning-params") {
      // Each refused parameter is refused once: max_tokens (the answer agent's budget) is sent as max_completion_tokens
      // from then on, temperature, top_p and presence_penalty (the answer's sampling) are left out.
      test("each refused parameter refused once, then adapted", () => {
        assert.ok(result.misbehaved >= 2 && result.misbehaved <= 4, `${result.misbehaved} requests rejected`);
      });
    }

    if (mode === "hidden-reasoning") {
      // A capped call whose cap the model spent thinking is sent again with room: the answer's first such call, not every one.
      test("a cap spent thinking is learned at once: few replies left empty", () => {
        assert.ok(result.misbehaved >= 1 && result.misbehaved <= 3, `${result.misbehaved} replies left empty`);
      });
    }

    if (mode === "ignores-format") {
      // A server that ignores response_format: each call's first reply guessed its keys until two repairs showed the
      // schema; from the first request with the schema in its system prompt on, no reply needs a repair.
      test("the schema goes in the prompt after two repairs, and no reply needs one after it", () => {
        const log = harness.fakes.llm.log;
        const first = log.findIndex((e) => e.messages.some((m) => m.role === "system" && String(m.content).includes("The response format's JSON Schema:")));
        assert.ok(first >= 0, "the schema was never put in the prompt");
        const later = log.slice(first).filter((e) => e.messages.some((m) => m.role === "assistant") && e.response_format_name !== null);
        assert.deepEqual(later.map((e) => e.agent), []);
        assert.ok(result.repairs >= 2 && result.repairs <= 12, `${result.repairs} repairs`);
      });
    }

    if (mode === "half-open") {
      // Every reply in reasoning_content, its content null: read from there, none asked again, the report cited.
      test("every reply is read from the reasoning field: none asked again, the report keeps its citations", () => {
        assert.equal(result.repairs, 0);
        assert.ok((runOf("tree").citations?.writtenCited ?? 0) > 0, "the report cites its sources");
      });
    }

    if (mode === "silent-cut") {
      // A prompt the server cut without a word (Ollama past its num_ctx) is learned from its count at once: the
      // cut reply is never taken (its marker is in nothing a user sees), the call goes again held to the window,
      // and every later prompt is held to it, so few replies answer a cut prompt.
      test("a prompt cut without a word is sent again held to the window, and later ones are held to it", () => {
        assert.ok(result.misbehaved >= 1 && result.misbehaved <= 3, `${result.misbehaved} prompts cut`);
      });
      // Held to the window, each prompt keeps what its task cannot go without: the analysis its tables' columns (it cut
      // them mid-text, and no query ran), the answer agent its question (its turn was cut whole: "I could not find this
      // out"), the discoveries their snippets (cut with everything between the objective and the last tag), the report
      // its sources' URLs whole (a URL cut in two was cited as written, and its sentences were uncited).
      test("held to the window, every engine still does its work: the answer is referenced, a discovery recorded, the report's citations whole", () => {
        assert.ok((runOf("answer").references ?? 0) > 0, "the answer has no reference");
        assert.ok((runOf("deep-research").discoveries ?? 0) > 0, "no discovery recorded");
        const c = runOf("tree").citations;
        assert.ok(c && c.writtenCited > 0, "the report cites nothing");
        assert.equal(c.flaggedUncited, 0, `uncited: ${c.notSupported.join("; ")}`);
      });
    }

    if (mode === "no-usage") {
      // A server that counts nothing: each call's tokens are estimated from what was sent and received, so
      // every engine's totals (and the answer's token budget) count, as they do when the server counts.
      for (const engine of ENGINES) {
        test(`${engine}: its tokens are counted though the server reports none`, () => {
          const { tokens } = runOf(engine);
          assert.ok(tokens && tokens.prompt > 0 && tokens.completion > 0, `${engine} recorded ${JSON.stringify(tokens)}`);
        });
      }
      test("the estimates are within a factor of two of the fake's own count", () => {
        const recorded = result.runs.reduce((n, r) => n + (r.tokens?.prompt ?? 0), 0);
        assert.ok(recorded > result.promptTokens / 2 && recorded < result.promptTokens * 2, `${recorded} estimated against ${result.promptTokens} counted by the fake`);
      });
    }

    if (mode === "cut-off" || mode === "error-in-200") {
      // A reply cut at the server's output limit, or whose stream failed mid-reply, is continued until it ends: what
      // Quarry received is the whole reply, the sentence the model restarted in each continuation not repeated.
      for (const [engine, agent] of [["tree", "report-writer"], ["deep-research", "dr-reply"]] as const) {
        test(`${engine}: the ${agent}'s reply ${mode === "cut-off" ? "cut at the output limit" : "whose stream failed mid-reply"} is continued, whole and nothing repeated`, () => {
          const cut = result.cutReplies.filter((r) => r.agent === agent);
          assert.ok(cut.length > 0, `no ${agent} reply was cut`);
          const run = runOf(engine);
          // Line by line, without the citations (handles become numbered links), before Quarry's own sources list.
          const lines = (text: string) => text.split("\n").map((line) => line.replace(/\[[^\]]*\](?:\([^)]*\))?/g, "").trim()).filter(Boolean);
          const intended = lines(cut.at(-1)!.intended);
          assert.deepEqual(lines(run.written ?? "").slice(0, intended.length + 1), [...intended, "## Sources"]);
          assert.deepEqual(run.citations?.lost, []);
        });
      }
    }

    if (mode === "loop") {
      // A reply looping at the output limit is not continued (a looping model loops on), and is kept up to the loop's first copy.
      for (const [engine, agent] of [["tree", "report-writer"], ["deep-research", "dr-reply"]] as const) {
        test(`${engine}: the ${agent}'s looping reply is not continued, and keeps the repeated line at most twice`, () => {
          const looped = harness.fakes.llm.log.filter((e) => e.agent === agent && e.misbehaved);
          assert.ok(looped.length > 0, `no ${agent} reply looped`);
          const continued = harness.fakes.llm.log.filter((e) => e.agent === agent && e.messages.some((m) => m.role === "assistant"));
          assert.deepEqual(continued.map((e) => e.agent), [], "asked to go on");
          const line = loopLine(looped[0].intended ?? "")!;
          const written = runOf(engine).written ?? "";
          // Without the citations (handles become numbered links).
          const strip = (text: string) => text.replace(/\[[^\]]*\](?:\([^)]*\))?/g, "").replace(/\s+/g, " ");
          const copies = strip(written).split(strip(line).trim()).length - 1;
          assert.ok(copies >= 1 && copies <= 2, `${copies} copies of the looped line`);
        });
      }
    }

    if (mode === "sql-dialect") {
      // A query in a code fence, after a label, with MySQL's backticks: run as DuckDB reads it, not refused.
      test("deep-research: the analysis's queries, written for another database, run", () => {
        const run = runOf("deep-research");
        assert.ok((run.analysisPlanned ?? 0) > 0, "an ANALYSIS task was planned");
        assert.deepEqual(run.analysisSkipped, []);
        assert.deepEqual(run.failedQueries, []);
      });
    }

    if (mode === "nulls") {
      // null for an empty text or list, or the key left out ("correction": null, no "quote"): read as empty.
      for (const engine of ["tree", "deep-research"] as const) {
        test(`${engine}: its citations are judged`, () => {
          const c = runOf(engine).citations;
          assert.ok(c, `${engine} wrote nothing cited`);
          assert.ok(c.judged > 0 && c.unjudged === 0, `${c.judged} judged, ${c.unjudged} not`);
        });
      }
    }

    if (mode === "cite-styles" || mode === "cite-after") {
      // "(S2)", "[citation:2]", "【2†source】", "[Source 2]", "[^S2]", "[S2](S2)", "[S2-S3]": each a citation of the
      // sources shown, kept as one and judged. And citations right after the full stop ("… 20%.[1](…)"): before, the
      // sentence was cut inside the first one, and its claim was uncited.
      for (const engine of ["tree", "deep-research"] as const) {
        test(`${engine}: citations by handle in the model's own styles are kept and judged`, () => {
          const c = runOf(engine).citations;
          assert.ok(c, `${engine} wrote nothing cited`);
          assert.ok(c.judged > 0, "its citations were judged");
          assert.equal(c.uncited, 0, "no sentence lost its citation");
          assert.deepEqual(c.lost, []);
        });
      }
    }

    if (mode === "uncited") {
      // A report citing none of its sources (a small model that let the rule go) is written once more, the model told
      // so: the stored report cites and its citations are judged (before, it was stored citing nothing).
      test("tree: a report that cites nothing is written again, told so, and the one stored cites its sources", () => {
        const c = runOf("tree").citations;
        assert.ok(c && c.storedCited > 0, `the stored report cites ${c?.storedCited ?? 0} sentences`);
        assert.ok(c.judged > 0 && c.unjudged === 0, `${c.judged} judged, ${c.unjudged} not`);
        const asked = harness.fakes.llm.log.filter((e) => e.agent === "report-writer" && JSON.stringify(e.messages).includes("<problem>"));
        assert.equal(asked.length, 1, "the report asked again once");
        assert.match(runOf("tree").restartNotes?.join() ?? "", /^Written again: the report cited none of its \d+ sources\.$/, "the page told why its draft started over");
      });
      test("deep-research: a write-up that cites nothing is written again, told so, and the one stored cites its snippets", () => {
        const c = runOf("deep-research").citations;
        assert.ok(c && c.storedCited > 0, `the stored write-up cites ${c?.storedCited ?? 0} sentences`);
        const asked = harness.fakes.llm.log.filter((e) => e.agent === "dr-reply" && JSON.stringify(e.messages).includes("<problem>"));
        assert.equal(asked.length, 1, "the write-up asked again once");
        assert.match(runOf("deep-research").restartNotes?.join() ?? "", /^Written again: the write-up cited none of its \d+ snippets\.$/, "the page told why its draft started over");
      });
    }

    if (mode === "language-drift") {
      // A report drifting into Chinese for its last paragraph, a write-up or an answer in Chinese for an English prompt (as Qwen models drift) is
      // asked for again, the model told which language; what is stored is in the user's (before, stored as written).
      const han = /\p{Script=Han}/u;
      const systemOf = (agent: string) => harness.fakes.llm.log.filter((e) => e.agent === agent).map((e) => JSON.stringify(e.messages));
      test("tree: the report writer is told the researcher's language; a report drifting into Chinese is written again in English", () => {
        assert.ok(systemOf("report-writer").every((m) => m.includes("Write in English, the language of the researcher's prompt")), "the report writer was told the language");
        const asked = harness.fakes.llm.log.filter((e) => e.agent === "report-writer" && JSON.stringify(e.messages).includes("is in Chinese, but the user wrote in English"));
        assert.equal(asked.length, 1, "the report asked again once, told why");
        assert.deepEqual(runOf("tree").restartNotes, ["Written again: the report was written in Chinese, not English."], "the page told why its draft started over");
        const c = runOf("tree").citations;
        assert.ok(c && c.storedCited > 0 && c.judged > 0, "the stored report cites and is judged");
        assert.doesNotMatch(runOf("tree").text ?? "", han);
      });
      test("deep-research: a write-up in Chinese is written again in English", () => {
        const asked = harness.fakes.llm.log.filter((e) => e.agent === "dr-reply" && JSON.stringify(e.messages).includes("is in Chinese, but the user wrote in English"));
        assert.equal(asked.length, 1, "the write-up asked again once, told why");
        assert.deepEqual(runOf("deep-research").restartNotes, ["Written again: the write-up was written in Chinese, not English."], "the page told why its draft started over");
        assert.ok(systemOf("dr-reply").every((m) => m.includes("Write all text for the user in English, their language")), "the writer was told the language");
        assert.doesNotMatch(runOf("deep-research").text ?? "", han);
      });
      test("answer: an answer in Chinese is rejected for its language, and the one given is not in Chinese", () => {
        const lessons = harness.fakes.llm.log.filter((e) => e.agent === "answer-agent" && JSON.stringify(e.messages).includes("is in Chinese"));
        assert.ok(lessons.length > 0, "no answer was rejected for its language");
        assert.doesNotMatch(runOf("answer").text ?? "", han);
      });
    }

    if (mode === "miscite") {
      // A sentence cited to the wrong source (the next one of the list) is cited to the source that says it and
      // judged again (before, it was judged unsupported and removed, or rewritten to the wrong source's words).
      test("tree: each sentence cited to the wrong source is cited to the one that says it, kept and judged", () => {
        const c = runOf("tree").citations;
        assert.ok(c, "the tree wrote no report");
        assert.ok(c.judgedUnsupported > 0, "no citation was wrong as written");
        assert.equal(c.storedCited, c.writtenCited, `${c.writtenCited - c.storedCited} of ${c.writtenCited} cited sentences lost`);
        // Judged as any report's sentences are: supported, or partly where the sentence adds to its source.
        assert.deepEqual(c.notSupported.filter((x) => !x.startsWith("partial:")), [], `${c.finalSupported} of ${c.storedCited} supported`);
      });
    }

    if (mode === "paragraph-cites") {
      // A paragraph cited once, at its end: the citation covers its sentences before it, each judged against it
      // (before, each was an uncited sentence, flagged as a fact without a citation).
      test("tree: the sentences a paragraph's last citation covers are judged against it, none flagged uncited", () => {
        const c = runOf("tree").citations;
        assert.ok(c, "the tree wrote no report");
        assert.ok(runOf("tree").written && /\. [^.\n[]+\. [^.\n[]+ \[[^\]]+\]\(http/.test(runOf("tree").written!), "no paragraph was cited only at its end");
        assert.ok(c.coveredSupported > 0, "no sentence was judged against its paragraph's citation");
        assert.equal(c.flaggedUncited, 0, `${c.flaggedUncited} sentences flagged as uncited facts`);
      });
    }

    if (mode === "sources-lines") {
      // A paragraph's citations on a "Sources: …" line under it: they cover its sentences, each judged against them
      // (before, the line was no claim and its citations nobody's: every sentence was flagged as uncited).
      // (The write-up's findings are list items, each cited: only the tree's report has such paragraphs.)
      test("tree: the sentences a sources line covers are judged against it, none flagged uncited", () => {
        const c = runOf("tree").citations;
        assert.ok(c, "the tree wrote no report");
        assert.ok(runOf("tree").written && /\nSources: \[/.test(runOf("tree").written!), "no sources line was written");
        assert.ok(c.coveredSupported > 0, "no sentence was judged against its sources line");
        assert.equal(c.flaggedUncited, 0, `${c.flaggedUncited} sentences flagged as uncited facts`);
      });
    }

    if (mode === "tables") {
      // Findings set out as a table, each row's citations in a Source column: every row is a claim, cited by its
      // Source cell, and judged (before, table lines were no claims: a report of tables went unverified).
      for (const engine of ["tree", "deep-research"] as const) {
        test(`${engine}: the findings table's rows keep their citations and are judged`, () => {
          const c = runOf(engine).citations;
          assert.ok(c, `${engine} wrote nothing cited`);
          assert.ok(runOf(engine).written?.includes("| Finding | Source |"), "the reply was not set out as a table");
          assert.ok(c.tableRowsCited > 0, "no table row is a cited claim");
          assert.equal(c.tableRowsJudged, c.tableRowsCited, `${c.tableRowsJudged} of ${c.tableRowsCited} cited rows judged`);
          assert.deepEqual(c.lost, []);
        });
      }
    }

    if (mode === "fenced") {
      // A report or write-up sent whole in a code fence is no code block: its citations stay, and are judged.
      for (const engine of ["tree", "deep-research"] as const) {
        test(`${engine}: the fence around the reply is taken off, its citations kept and judged`, () => {
          const c = runOf(engine).citations;
          assert.ok(c, `${engine} wrote nothing cited`);
          assert.ok(c.writtenCited > 0, "as written, it cites nothing");
          assert.deepEqual(c.lost, []);
          assert.ok(c.status !== null, "it was verified");
        });
      }
      test("deep-research: no reply is stored in a fence", () => {
        assert.deepEqual(result.fencedReplies, []);
      });
    }

    if (mode !== "generic") return;

    test("tree: the report keeps every citation not judged unsupported", () => {
      const c = runOf("tree").citations;
      assert.ok(c, "the tree wrote no report");
      assert.ok(c.writtenCited > 0, "the report as written cites nothing");
      assert.deepEqual(c.lost, [], `${c.lost.length} of ${c.writtenCited} cited sentences lost (${c.judgedUnsupported} judged unsupported)`);
      assert.ok(c.citationsStored >= c.citationsWritten - c.judgedUnsupported, `${c.citationsStored} of ${c.citationsWritten} citations kept`);
    });

    test("the evidence of quotes in the model's own word order is found in the page: claims judged, the answer referenced", () => {
      const c = runOf("tree").citations;
      assert.ok(c && c.judged > 0, `the tree's report: ${c?.judged ?? 0} claims judged`);
      assert.ok((runOf("answer").references ?? 0) > 0, "the answer has a reference");
    });

    test("deep-research: a discovery citing the first snippet for figures another holds is linked to that one, not rejected", () => {
      // Every evidence handle is the first one shown (S1, a query's result) — the literature finding's figures are
      // on a page: it is linked to the page's snippet (before, it was rejected as stating numbers no result holds).
      const run = runOf("deep-research");
      assert.ok((run.discoveries ?? 0) >= 2, `${run.discoveries} discoveries`);
      assert.equal(run.discoveriesWithEvidence, run.discoveries, "a discovery without linked evidence");
    });

    test("deep-research: ANALYSIS tasks run when the dataset loaded", () => {
      const run = runOf("deep-research");
      assert.equal(run.datasetsLoaded, 1, "the uploaded CSV loaded");
      assert.ok((run.analysisPlanned ?? 0) > 0, "an ANALYSIS task was planned");
      assert.deepEqual(run.analysisSkipped, [], `${run.analysisRun} of ${run.analysisPlanned} ANALYSIS tasks ran`);
    });

    test("tree: the verification view shows exactly the cited sentences of the stored report", () => {
      const c = runOf("tree").citations;
      assert.ok(c, "the tree wrote no report");
      assert.ok(c.status !== null, "the report has no verification");
      assert.deepEqual({ missingFromView: c.missingFromView, notInStored: c.notInStored }, { missingFromView: [], notInStored: [] });
    });
  });
}
