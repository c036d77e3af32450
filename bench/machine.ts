// How fast this machine is at what Quarry's server does most: loopback TCP round trips (every LLM call,
// search, page fetch, PostgreSQL statement and Redis command is one or more) and plain JavaScript. The
// bench's figures move with the machine (bench/README.md: the same commit gave 1.25 and 1.78 of the
// bound on two machines), so each run records these two with its figures, to compare machines by.
import net from "node:net";

export interface MachineCalibration {
  /** CPU (user + system) of one loopback TCP round trip of one byte, both ends in this process: the median of 3 runs. */
  loopbackRoundTripCpuUs: number;
  /** Wall time of a fixed loop of JSON.stringify and JSON.parse: the median of 3 runs. */
  jsonLoopMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function loopbackRoundTripCpuUs(roundTrips: number): Promise<number> {
  const server = net.createServer((socket) => socket.on("data", (d) => socket.write(d)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const client = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => client.once("connect", resolve).once("error", reject));
    const before = process.cpuUsage();
    await new Promise<void>((resolve) => {
      let n = 0;
      client.on("data", () => (++n < roundTrips ? client.write("x") : resolve()));
      client.write("x");
    });
    const used = process.cpuUsage(before);
    client.destroy();
    return (used.user + used.system) / roundTrips;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function jsonLoopMs(iterations: number): number {
  const start = performance.now();
  let size = 0;
  for (let i = 0; i < iterations; i++) {
    size += JSON.stringify({ a: i, b: [1, 2, 3], c: "x".repeat(20) }).length;
    size += (JSON.parse('{"a":1,"b":[1,2,3]}') as { b: number[] }).b.length;
  }
  // The results are used, so that the loop is not optimised away.
  if (size === 0) throw new Error("the JSON loop produced nothing");
  return performance.now() - start;
}

export async function calibrateMachine({ roundTrips = 5_000, iterations = 200_000 } = {}): Promise<MachineCalibration> {
  const rtts: number[] = [];
  const loops: number[] = [];
  for (let i = 0; i < 3; i++) {
    rtts.push(await loopbackRoundTripCpuUs(roundTrips));
    loops.push(jsonLoopMs(iterations));
  }
  return { loopbackRoundTripCpuUs: Math.round(median(rtts) * 10) / 10, jsonLoopMs: Math.round(median(loops)) };
}
