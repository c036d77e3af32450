// The machine's calibration: a loopback round trip's CPU and the JSON loop's time, both measured (the
// figures themselves are the machine's; here only that they are measured, finite and plausible).
import assert from "node:assert/strict";
import { test } from "node:test";
import { calibrateMachine } from "./machine";

test("a calibration measures a loopback round trip's CPU and the JSON loop's time", async () => {
  const m = await calibrateMachine({ roundTrips: 300, iterations: 5_000 });
  // A round trip is two writes and two reads in the kernel: more than a microsecond, less than 10 ms anywhere.
  assert.ok(Number.isFinite(m.loopbackRoundTripCpuUs) && m.loopbackRoundTripCpuUs > 1 && m.loopbackRoundTripCpuUs < 10_000, String(m.loopbackRoundTripCpuUs));
  assert.ok(Number.isFinite(m.jsonLoopMs) && m.jsonLoopMs >= 0 && m.jsonLoopMs < 60_000, String(m.jsonLoopMs));
});
