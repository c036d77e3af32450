// Tests for the loopback fakes. Starts all three once; the checks live in llm.checks.ts and
// web.checks.ts (not *.test.ts, so that a glob over test files does not run them twice).
// Run: node --import tsx --test test/fakes/fakes.test.ts
import { after, before } from "node:test";
import { startFakes, type Fakes } from "./index";
import { registerLlmChecks } from "./llm.checks";
import { registerWebChecks } from "./web.checks";

let fakes: Fakes | undefined;
const get = (): Fakes => {
  if (!fakes) throw new Error("fakes not started");
  return fakes;
};

before(async () => {
  fakes = await startFakes();
});

after(async () => {
  await fakes?.stop();
});

registerLlmChecks(get);
registerWebChecks(get);
