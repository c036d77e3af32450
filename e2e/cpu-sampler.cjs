// Samples the CPU time of the main threads of the processes named on the command line every 2 ms, and
// writes "<epoch ms> <CPU ms>" lines to stdout (mainThreadTasks in helpers.ts). A process of its own, so
// that a busy test runner's event loop leaves no gap in the samples.
const fs = require("node:fs");

const pids = process.argv.slice(2).map(Number);

/** schedstat's first field (ns on a CPU); else stat's utime + stime (ticks of 10 ms). */
function threadCpuMs(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    try {
      // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
      const fields = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return 0;
    }
  }
}

let lines = [];
const sample = () => lines.push(`${(performance.timeOrigin + performance.now()).toFixed(2)} ${pids.reduce((n, pid) => n + threadCpuMs(pid), 0).toFixed(3)}`);
const flush = () => {
  if (lines.length) process.stdout.write(lines.join("\n") + "\n");
  lines = [];
};
sample();
flush();
setInterval(() => {
  sample();
  if (lines.length >= 100) flush();
}, 2);
process.on("SIGTERM", () => {
  sample();
  flush();
  process.exit(0);
});
