"use client";
// New research in two steps: the prompt → generated clarifying questions, answers, depth × breadth.
// The draft lives in sessionStorage so that a reload keeps what was typed.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { SourcePicker, WEB_ONLY } from "@/components/knowledge/source-picker";
import type { Sources } from "@/lib/client/knowledge-api";
import { ApiError } from "@/lib/client/api";
import { useGenerateQuestions, useStartResearch } from "@/hooks/use-research-mutations";
import { useSessionState } from "@/hooks/use-session-state";
import { buttonClass } from "./button";
import { FieldError } from "./field-error";
import { Icon } from "./icons";
import { NumberChoice } from "./number-choice";
import type { EstimateRanges } from "@/lib/estimate-ranges";
import { ResearchEstimate } from "./research-estimate";
import { Spinner } from "./spinner";

export interface WizardLimits {
  maxDepth: number;
  maxBreadth: number;
  maxQuestions: number;
  /** Time, token and cost ranges by choice, from the server: `estimates[depth - 1][breadth - 1]`. */
  estimates?: EstimateRanges[][];
}

interface Draft {
  step: 1 | 2;
  prompt: string;
  numQuestions: number;
  researchId: string | null;
  questions: string[];
  answers: string[];
  depth: number;
  breadth: number;
}

/** A saved draft (from History) to continue at the answers step. */
export type ResumedDraft = Pick<Draft, "researchId" | "prompt" | "questions" | "answers"> & Partial<Pick<Draft, "depth" | "breadth">>;

const INITIAL: Draft = { step: 1, prompt: "", numQuestions: 3, researchId: null, questions: [], answers: [], depth: 2, breadth: 4 };

const EXAMPLES = [
  "How do solid-state batteries compare with lithium-ion for electric cars, and when will they ship at scale?",
  "What is the evidence on four-day work weeks for productivity and wellbeing?",
  "Which open-source vector databases suit a 50M-document RAG system, and what are their trade-offs?",
];

type FieldErrors = Record<string, string>;

/** The prompt's length limit (the API's). */
const PROMPT_MAX = 10_000;

/** Every field error the server named, beside its field; anything else as a general error. */
function errorsFrom(error: unknown, known: string[]): { fields: FieldErrors; general: string | null } {
  if (error instanceof ApiError) {
    const keyOf = (field: string) => known.find((k) => field === k || field.startsWith(`${k}.`) || field.startsWith(`${k}[`));
    const named = error.errors.length ? error.errors : error.field ? [{ field: error.field, message: error.message }] : [];
    const fields: FieldErrors = {};
    for (const { field, message } of named) {
      const key = keyOf(field);
      if (key && !fields[key]) fields[key] = message;
    }
    if (Object.keys(fields).length > 0) return { fields, general: null };
    return { fields: {}, general: error.message };
  }
  return { fields: {}, general: error instanceof Error ? error.message : "Something went wrong." };
}

export function NewResearchWizard({ limits, resume }: { limits: WizardLimits; resume?: ResumedDraft }) {
  const router = useRouter();
  const [draft, setDraft, ready, clearDraft, forgetDraft] = useSessionState<Draft>("quarry:new-research", INITIAL);
  // Continuing a draft from History: its questions (and any answers) replace what this tab held.
  useEffect(() => {
    if (!ready || !resume) return;
    setDraft((d) => (d.researchId === resume.researchId ? d : { ...INITIAL, ...resume, step: 2, numQuestions: resume.questions.length || INITIAL.numQuestions }));
    router.replace("/", { scroll: false });
  }, [ready, resume, setDraft, router]);
  const [fields, setFields] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  // Where the research searches (issue 22): not part of the saved draft, the web by default.
  const [sources, setSources] = useState<Sources>(WEB_ONLY);
  const [leaving, setLeaving] = useState(false);
  const questions = useGenerateQuestions();
  const start = useStartResearch();
  // Where focus goes (a selector) after the next render (a new step, an error): never back to the top of the page.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const el = focusNext.current ? document.querySelector<HTMLElement>(focusNext.current) : null;
    if (el) {
      focusNext.current = null;
      el.focus();
    }
  });
  /** After a failed request: the first field the server named, else the error message. */
  function focusError(fields: FieldErrors, ids: Record<string, string>) {
    const named = Object.keys(ids).find((k) => fields[k]);
    focusNext.current = named ? ids[named] : "#wizard-error";
  }

  const update = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const clampDepth = Math.min(draft.depth, limits.maxDepth);
  const clampBreadth = Math.min(draft.breadth, limits.maxBreadth);

  async function onGenerate(e: React.FormEvent) {
    e.preventDefault();
    setGeneral(null);
    // Every problem at once, each beside its field.
    const invalid: FieldErrors = {};
    if (!draft.prompt.trim()) invalid.initial_prompt = "Describe what you want to research.";
    else if (draft.prompt.length > PROMPT_MAX) invalid.initial_prompt = `The prompt must be at most ${PROMPT_MAX.toLocaleString("en")} characters.`;
    if (!Number.isInteger(draft.numQuestions) || draft.numQuestions < 1 || draft.numQuestions > limits.maxQuestions) {
      invalid.num_questions = `Choose from 1 to ${limits.maxQuestions} questions.`;
    }
    setFields(invalid);
    if (Object.keys(invalid).length > 0) {
      document.getElementById(invalid.initial_prompt ? "prompt" : "num-questions")?.focus();
      return;
    }
    try {
      const res = await questions.mutateAsync({ initial_prompt: draft.prompt.trim(), num_questions: draft.numQuestions });
      focusNext.current = res.followup_questions.length > 0 ? "#answer-0" : "#questions-heading";
      update({
        step: 2,
        researchId: res.research_id,
        questions: res.followup_questions,
        answers: res.followup_questions.map(() => ""),
      });
    } catch (error) {
      const r = errorsFrom(error, ["initial_prompt", "num_questions"]);
      setFields(r.fields);
      setGeneral(r.general);
      focusError(r.fields, { initial_prompt: "#prompt", num_questions: "#num-questions" });
    }
  }

  async function onStart(e: React.FormEvent) {
    e.preventDefault();
    if (!draft.researchId) return;
    setGeneral(null);
    setFields({});
    try {
      const res = await start.mutateAsync({
        research_id: draft.researchId,
        initial_prompt: draft.prompt.trim(),
        followup_questions: draft.questions,
        followup_answers: draft.answers.map((a) => a.trim()),
        depth: clampDepth,
        breadth: clampBreadth,
        sources,
      });
      forgetDraft();
      setLeaving(true);
      router.push(`/research/${res.research_id}`);
    } catch (error) {
      const r = errorsFrom(error, ["followup_answers", "depth", "breadth", "research_id", "initial_prompt", "sources"]);
      setFields(r.fields);
      setGeneral(r.general);
      const checked = (group: string) => `[data-testid="${group}"] [aria-checked="true"]`;
      focusError(r.fields, { followup_answers: "#answer-0", depth: checked("depth"), breadth: checked("breadth"), research_id: "#start-over-alert", initial_prompt: "#start-over-alert" });
    }
  }

  if (!ready) return <div className="min-h-[28rem]" aria-busy="true" />;

  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-8 text-center sm:mb-10">
        <h1 className="text-[1.75rem] font-semibold leading-tight tracking-tight sm:text-4xl">What do you want to know?</h1>
        <p className="mx-auto mt-3 max-w-xl text-[15px] text-muted">
          Quarry searches the web in a tree of queries, reads the pages, and writes a cited report.
        </p>
      </div>

      <Steps step={draft.step} />

      {general ? (
        <div id="wizard-error" role="alert" tabIndex={-1} data-testid="wizard-error" className="mb-4 flex gap-2.5 rounded-lg border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
          <Icon name="alert" className="mt-0.5 size-4 shrink-0" />
          <span>{general}</span>
        </div>
      ) : null}

      {draft.step === 1 ? (
        <form onSubmit={onGenerate} noValidate className="rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6" data-testid="wizard-step-1">
          <label htmlFor="prompt" className="text-sm font-medium">Research prompt</label>
          <textarea
            id="prompt"
            data-testid="prompt-input"
            value={draft.prompt}
            onChange={(e) => update({ prompt: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
            }}
            rows={5}
            placeholder="e.g. What are the most promising approaches to grid-scale energy storage, and what do they cost?"
            aria-invalid={!!fields.initial_prompt || undefined}
            aria-describedby={fields.initial_prompt ? "prompt-error prompt-count" : "prompt-count"}
            className={`mt-2 block w-full resize-y rounded-xl border bg-bg/40 px-3.5 py-3 text-[15px] leading-relaxed outline-none transition-colors placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/20 ${
              fields.initial_prompt ? "border-danger" : "border-border"
            }`}
          />
          <div className="flex items-start justify-between gap-3">
            <FieldError id="prompt-error" message={fields.initial_prompt} testid="error-initial_prompt" />
            <p
              id="prompt-count"
              data-testid="prompt-count"
              className={`ml-auto mt-1.5 shrink-0 text-xs tabular-nums ${draft.prompt.length > PROMPT_MAX ? "font-medium text-danger" : "text-subtle"}`}
            >
              {draft.prompt.length.toLocaleString("en")} / {PROMPT_MAX.toLocaleString("en")}
              <span className="sr-only"> characters</span>
            </p>
          </div>

          {!draft.prompt ? (
            <div className="mt-3 flex flex-wrap gap-2">
              {EXAMPLES.map((ex) => (
                <button
                  key={ex}
                  type="button"
                  onClick={() => update({ prompt: ex })}
                  className="max-w-full truncate rounded-full border border-border px-3 py-1 text-left text-xs text-muted transition-colors hover:border-accent/40 hover:text-fg"
                >
                  {ex}
                </button>
              ))}
            </div>
          ) : null}

          <div className="mt-5 flex flex-col gap-4 border-t border-border pt-5 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <label htmlFor="num-questions" className="text-sm font-medium">Clarifying questions</label>
              <p className="text-xs text-subtle">Quarry asks these first to focus the research.</p>
              <input
                id="num-questions"
                data-testid="num-questions"
                type="number"
                inputMode="numeric"
                min={1}
                max={limits.maxQuestions}
                value={Number.isFinite(draft.numQuestions) ? draft.numQuestions : ""}
                onChange={(e) => update({ numQuestions: e.target.value === "" ? NaN : Number(e.target.value) })}
                aria-invalid={!!fields.num_questions || undefined}
                aria-describedby={fields.num_questions ? "num-questions-error" : undefined}
                className={`mt-2 h-10 w-24 rounded-lg border bg-bg/40 px-3 text-[15px] tabular-nums outline-none focus:border-accent focus:ring-2 focus:ring-accent/20 ${
                  fields.num_questions ? "border-danger" : "border-border"
                }`}
              />
              <FieldError id="num-questions-error" message={fields.num_questions} testid="error-num_questions" />
            </div>
            <button type="submit" data-testid="generate-questions" disabled={questions.isPending} className={buttonClass("primary", "lg", "w-full sm:w-auto")}>
              {questions.isPending ? <Spinner /> : <Icon name="sparkles" />}
              {questions.isPending ? "Thinking of questions…" : "Continue"}
            </button>
          </div>
        </form>
      ) : (
        <form onSubmit={onStart} noValidate className="space-y-5" data-testid="wizard-step-2">
          <section className="rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <h2 className="text-xs font-medium uppercase tracking-wide text-subtle">Your prompt</h2>
                <p className="mt-1 whitespace-pre-wrap break-words text-[15px]" data-testid="prompt-summary">{draft.prompt}</p>
              </div>
              <button type="button" data-testid="edit-prompt" className={buttonClass("ghost", "sm", "shrink-0")} onClick={() => { setFields({}); setGeneral(null); focusNext.current = "#prompt"; update({ step: 1 }); }}>
                <Icon name="arrowLeft" /> Edit
              </button>
            </div>
          </section>

          <section className="rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6" aria-labelledby="questions-heading">
            <h2 id="questions-heading" tabIndex={-1} className="text-[15px] font-semibold focus:outline-none">A few questions first</h2>
            <p className="mt-0.5 text-sm text-muted">Answer what you can; blank answers are fine.</p>
            {draft.questions.length === 0 ? (
              <p className="mt-4 text-sm text-subtle">No clarifying questions were needed.</p>
            ) : (
              <ol className="mt-4 space-y-4">
                {draft.questions.map((q, i) => (
                  <li key={i}>
                    <label htmlFor={`answer-${i}`} className="flex gap-2 text-sm font-medium leading-snug">
                      <span className="grid size-5 shrink-0 place-items-center rounded-full bg-accent-soft text-[11px] font-semibold text-accent">{i + 1}</span>
                      <span data-testid={`question-${i}`}>{q}</span>
                    </label>
                    <textarea
                      id={`answer-${i}`}
                      data-testid={`answer-${i}`}
                      rows={2}
                      value={draft.answers[i] ?? ""}
                      onChange={(e) => {
                        const answers = draft.answers.slice();
                        answers[i] = e.target.value;
                        update({ answers });
                      }}
                      aria-invalid={!!fields.followup_answers || undefined}
                      aria-describedby={fields.followup_answers ? "answers-error" : undefined}
                      className={`mt-2 block w-full resize-y rounded-lg border bg-bg/40 px-3 py-2 text-sm outline-none placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/20 ${
                        fields.followup_answers ? "border-danger" : "border-border"
                      }`}
                      placeholder="Your answer"
                    />
                  </li>
                ))}
              </ol>
            )}
            <FieldError id="answers-error" message={fields.followup_answers} testid="error-followup_answers" />
          </section>

          <section className="rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6" aria-labelledby="scope-heading">
            <h2 id="scope-heading" className="text-[15px] font-semibold">Scope</h2>
            <div className="mt-4 grid gap-5 sm:grid-cols-2">
              <div>
                <NumberChoice label="Depth" hint="levels of follow-up" value={clampDepth} min={1} max={limits.maxDepth} onChange={(depth) => update({ depth })} testid="depth" errorId={fields.depth ? "depth-error" : undefined} invalid={!!fields.depth} />
                <FieldError id="depth-error" message={fields.depth} testid="error-depth" />
              </div>
              <div>
                <NumberChoice label="Breadth" hint="queries at the first level" value={clampBreadth} min={1} max={limits.maxBreadth} onChange={(breadth) => update({ breadth })} testid="breadth" errorId={fields.breadth ? "breadth-error" : undefined} invalid={!!fields.breadth} />
                <FieldError id="breadth-error" message={fields.breadth} testid="error-breadth" />
              </div>
            </div>
            <div className="mt-5">
              <SourcePicker value={sources} onChange={setSources} />
              <FieldError id="sources-error" message={fields.sources} testid="error-sources" />
            </div>
            <div className="mt-5">
              <ResearchEstimate depth={clampDepth} breadth={clampBreadth} ranges={limits.estimates?.[clampDepth - 1]?.[clampBreadth - 1]} />
            </div>
          </section>

          {fields.research_id || fields.initial_prompt ? (
            <div id="start-over-alert" role="alert" tabIndex={-1} data-testid="error-research_id" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
              <span>{fields.research_id ?? fields.initial_prompt}</span>
              <button type="button" className={buttonClass("secondary", "sm")} onClick={() => { setFields({}); focusNext.current = "#prompt"; update({ step: 1, researchId: null }); }}>
                Start over
              </button>
            </div>
          ) : null}

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
            <button type="button" className={buttonClass("ghost", "md")} onClick={() => { clearDraft(); setFields({}); setGeneral(null); focusNext.current = "#prompt"; }} data-testid="discard-draft">
              Discard
            </button>
            <button type="submit" data-testid="start-research" disabled={start.isPending || leaving} className={buttonClass("primary", "lg", "w-full sm:w-auto")}>
              {start.isPending || leaving ? <Spinner /> : <Icon name="search" />}
              {start.isPending || leaving ? "Starting…" : "Start research"}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function Steps({ step }: { step: 1 | 2 }) {
  const items = ["Prompt", "Clarify & scope"];
  return (
    <ol className="mb-4 flex items-center gap-2 text-sm" aria-label="Steps">
      {items.map((label, i) => {
        const n = (i + 1) as 1 | 2;
        const state = n < step ? "done" : n === step ? "current" : "todo";
        return (
          <li key={label} className="flex items-center gap-2" aria-current={state === "current" ? "step" : undefined}>
            {i > 0 ? <span className="h-px w-6 bg-border-strong sm:w-10" aria-hidden="true" /> : null}
            <span className={`grid size-6 place-items-center rounded-full text-xs font-semibold ${state === "todo" ? "border border-border-strong text-subtle" : "bg-accent text-accent-fg"}`}>
              {state === "done" ? <Icon name="check" className="size-3.5" strokeWidth={3} /> : n}
            </span>
            <span className={state === "todo" ? "text-subtle" : "font-medium"}>{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
