#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only prefix]`: runs every benchmark module, prints one table
// (name, opgen, peer, ratio, unit), and writes bench/out/results.json and bench/out/scaling.svg.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderChart } from "./chart.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;

const MODULES = ["cli", "manifests", "envtest", "runtime", "webhook", "image"];

const rows = [];
const failures = [];
for (const name of MODULES) {
  if (only && !name.startsWith(only.split(".")[0])) continue;
  const file = join(here, `${name}.js`);
  if (!existsSync(file)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  const started = Date.now();
  try {
    const mod = await import(file);
    const got = await mod.run({ quick });
    // `--only cli` runs a module; `--only manifests.kinds` also narrows its rows.
    rows.push(...got.filter((r) => !only?.includes(".") || r.name.startsWith(only)));
  } catch (error) {
    failures.push(`${name}: ${error.stack ?? error}`);
  }
  process.stderr.write(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
}

const fmt = (v) => (v === undefined ? "" : typeof v === "number" ? String(v) : v);
const table = [["name", "opgen", "peer", "peer value", "ratio", "unit", "runs (min–max)", "note"]];
for (const r of rows) {
  table.push([
    r.name,
    fmt(r.value),
    fmt(r.peer),
    fmt(r.peerValue),
    r.ratio === undefined ? "" : `${r.ratio}×`,
    r.unit,
    r.runs ? `${r.runs} (${fmt(r.min)}–${fmt(r.max)})` : "",
    fmt(r.note),
  ]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((line) => String(line[i]).length)));
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
const out = [
  line(table[0]),
  `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
  ...table.slice(1).map(line),
];
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
process.stdout.write(
  `\nopgen bench${quick ? " (quick)" : ""} on ${machine}\n\n${out.join("\n")}\n`,
);

const outDir = join(here, "out");
mkdirSync(outDir, { recursive: true });
writeFileSync(
  join(outDir, "results.json"),
  `${JSON.stringify({ machine, quick, date: new Date().toISOString(), rows }, null, 2)}\n`,
);
const svg = await renderChart(rows);
if (svg) writeFileSync(join(outDir, "scaling.svg"), svg);
process.stdout.write(
  `\nwrote ${join(outDir, "results.json")}${svg ? ` and ${join(outDir, "scaling.svg")}` : ""}\n`,
);

if (failures.length > 0) {
  process.stderr.write(
    `\n${failures.length} benchmark module(s) failed:\n${failures.join("\n\n")}\n`,
  );
  process.exitCode = 1;
}
