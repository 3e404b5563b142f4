/**
 * `npm run build` with a progress line instead of npm's stream: what the build said is shown
 * when it fails (the compiler's errors) or when it says more than npm's own "> script" header
 * (warnings from `opgen manifests`, such as a stale sample).
 */
import { type Step, seconds, startStep } from "../util/progress.js";

export function buildOperator(root: string, label: string): Step {
  const step = startStep(label, "npm", ["run", "build"], { cwd: root });
  return {
    kill: step.kill,
    result: step.result.then((r) => {
      const said = r.output
        .split("\n")
        .filter((l) => l.trim() !== "" && !l.startsWith("> "))
        .join("\n");
      if (said !== "") process.stderr.write(`${said}\n`);
      if (r.exitCode === 0) process.stderr.write(`Built the operator in ${seconds(r)}\n`);
      return r;
    }),
  };
}
