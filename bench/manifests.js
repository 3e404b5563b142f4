// Manifests rows: `opgen manifests` (the built CLI in dist/) on generated APIs of N kinds with 30
// fields each (markers, enums, nested types, arrays, maps), next to ts-json-schema-generator and
// typescript-json-schema generating JSON schemas for the same types; plus the seed 001 MyApp API.
// Every tool runs as a new child process per run, as a user or CI runs it; after the untimed
// warm-up run, opgen's V8 code cache of the TypeScript compiler is warm (as on a developer's machine).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { row, run, timeIt } from "./lib.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const opgen = join(repo, "bin", "opgen.js");
const tsjsg = join(
  repo,
  "node_modules",
  "ts-json-schema-generator",
  "bin",
  "ts-json-schema-generator.js",
);
const tjs = join(repo, "node_modules", "typescript-json-schema", "bin", "typescript-json-schema");

/** The @opgen/runtime aliases, declared so the type-checking peers can resolve the imports. */
const RUNTIME_DTS = `export type int32 = number;
export type int64 = number;
export type Time = string;
export type Quantity = string | number;
export interface ObjectMeta { name?: string; namespace?: string; labels?: Record<string, string> }
export interface Condition { type: string; status: "True" | "False" | "Unknown"; observedGeneration?: int64; lastTransitionTime: Time; reason: string; message: string }
`;

/** One kind: a spec of 30 fields (every fifth a nested object or list of objects), a status. */
function kindSource(k) {
  const K = `Kind${k}`;
  const fields = [];
  for (let i = 0; i < 30; i++) {
    switch (i % 10) {
      case 0:
        fields.push(
          `  /**\n   * Name ${i} of the ${K}.\n   * @validation MaxLength=63\n   * @validation Pattern=\`^[a-z0-9-]+$\`\n   */\n  name${i}: string;`,
        );
        break;
      case 1:
        fields.push(
          `  /**\n   * Count ${i}.\n   * @validation Minimum=0\n   * @validation Maximum=100\n   * @default 1\n   */\n  count${i}?: int32;`,
        );
        break;
      case 2:
        fields.push(`  /** Mode ${i}. */\n  mode${i}?: "Always" | "OnFailure" | "Never";`);
        break;
      case 3:
        fields.push(
          `  /**\n   * Endpoints ${i}.\n   * @listType map\n   * @listMapKey name\n   */\n  endpoints${i}?: ${K}Endpoint[];`,
        );
        break;
      case 4:
        fields.push(`  /** Labels ${i}. */\n  labels${i}?: Record<string, string>;`);
        break;
      case 5:
        fields.push(`  /** Settings ${i}. */\n  settings${i}?: ${K}Settings;`);
        break;
      case 6:
        fields.push(
          `  /**\n   * Enabled ${i}.\n   * @default false\n   */\n  enabled${i}?: boolean;`,
        );
        break;
      case 7:
        fields.push(
          `  /**\n   * Tags ${i}.\n   * @validation MaxItems=10\n   * @validation items:MaxLength=20\n   */\n  tags${i}?: string[];`,
        );
        break;
      case 8:
        fields.push(`  /** Memory ${i}. */\n  memory${i}?: Quantity;`);
        break;
      default:
        fields.push(`  /** Since ${i}. */\n  since${i}?: Time | null;`);
    }
  }
  return `import type { Condition, int32, int64, ObjectMeta, Quantity, Time } from "@opgen/runtime";

/** An endpoint of ${K}. */
export interface ${K}Endpoint {
  /** The endpoint name. */
  name: string;
  /**
   * The port.
   * @validation Minimum=1
   * @validation Maximum=65535
   */
  port: int32;
  protocol?: "TCP" | "UDP";
}

/**
 * Settings of ${K}.
 * @validation XValidation rule="self.min <= self.max" message="min must not exceed max"
 */
export interface ${K}Settings {
  min: int32;
  max: int32;
  /** @validation MinLength=1 */
  profile?: string;
  retries?: int64;
  annotations?: Record<string, string>;
}

/** ${K}Spec is the desired state of ${K}. */
export interface ${K}Spec {
${fields.join("\n")}
}

/** ${K}Status is the observed state of ${K}. */
export interface ${K}Status {
  /**
   * @listType map
   * @listMapKey type
   */
  conditions?: Condition[];
  observedGeneration?: int64;
}

/**
 * ${K} is a generated kind.
 * @resource
 * @subresource status
 * @printcolumn name=Name type=string jsonPath=".spec.name0"
 */
export interface ${K} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${K}Spec;
  status?: ${K}Status;
}
`;
}

/** The webhook file `opgen create webhook --defaulting --programmatic-validation` gives kind k. */
function webhookSource(k) {
  const marker = (m, mutating) =>
    `@webhook path=/${m}-bench-example-com-v1-kind${k} mutating=${mutating} failurePolicy=fail sideEffects=None groups=bench.example.com resources=kind${k}s verbs=create;update versions=v1 name=${m[0]}kind${k}-v1.kb.io admissionReviewVersions=v1`;
  return `import type { Kind${k} } from "../../api/v1/kind${k}.types.js";

/**
 * Sets defaults on Kind${k}.
 * ${marker("mutate", true)}
 */
export class Kind${k}CustomDefaulter {
  default(_ctx: unknown, obj: Kind${k}): void {
    obj.metadata ??= {};
    obj.metadata.labels = { tier: "web", ...obj.metadata.labels };
  }
}

/**
 * Validates Kind${k}.
 * ${marker("validate", false)}
 */
export class Kind${k}CustomValidator {
  validateCreate(_ctx: unknown, obj: Kind${k}): string[] {
    return obj.spec.name0.length > 10 ? ["long name"] : [];
  }
}
`;
}

function makeProject(dir, kinds) {
  mkdirSync(join(dir, "src/api/v1"), { recursive: true });
  mkdirSync(join(dir, "node_modules/@opgen/runtime"), { recursive: true });
  writeFileSync(
    join(dir, "node_modules/@opgen/runtime/package.json"),
    JSON.stringify({ name: "@opgen/runtime", types: "index.d.ts" }),
  );
  writeFileSync(join(dir, "node_modules/@opgen/runtime/index.d.ts"), RUNTIME_DTS);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        skipLibCheck: true,
        noEmit: true,
      },
      include: ["src"],
    }),
  );
  writeFileSync(
    join(dir, "src/api/v1/groupversion.ts"),
    '/** @groupName bench.example.com */\nexport const GroupVersion = { group: "bench.example.com", version: "v1" } as const;\n',
  );
  for (let k = 0; k < kinds; k++)
    writeFileSync(join(dir, `src/api/v1/kind${k}.types.ts`), kindSource(k));
}

export async function run_({ quick }) {
  const rows = [];
  const scratch = mkdtempSync(join(tmpdir(), "opgen-bench-manifests-"));
  try {
    const sizes = quick ? [10, 50] : [10, 50, 100, 200];
    const runs = quick ? 3 : 5;
    for (const kinds of sizes) {
      const dir = join(scratch, `api${kinds}`);
      makeProject(dir, kinds);
      const ours = await timeIt(() => run("node", [opgen, "manifests"], { cwd: dir }), { runs });
      const peer = await timeIt(
        () =>
          run(
            "node",
            [
              tsjsg,
              "--path",
              "src/api/v1/*.types.ts",
              "--type",
              "*",
              "--tsconfig",
              "tsconfig.json",
              "--no-type-check",
              "-o",
              "out.json",
            ],
            { cwd: dir },
          ),
        { runs },
      );
      const peer2 = await timeIt(
        () =>
          run("node", [tjs, "tsconfig.json", "*", "--required", "--out", "out2.json"], {
            cwd: dir,
          }),
        { runs },
      );
      const note = `${kinds} kinds x 30 fields, new process per run (code cache warm)`;
      rows.push(
        row(`manifests.kinds${kinds}`, "ms", ours, {
          peer: "ts-json-schema-generator 2.4.0",
          peerValue: Math.round(peer.median),
          note,
        }),
      );
      rows.push(
        row(`manifests.kinds${kinds}.tjs`, "ms", ours, {
          peer: "typescript-json-schema 0.68.0",
          peerValue: Math.round(peer2.median),
          note,
        }),
      );
    }

    // 100 kinds with a defaulting and a validating @webhook each, as `opgen create webhook`
    // writes them: what the webhook markers add to manifests.kinds100.
    const hooked = join(scratch, "webhooks100");
    makeProject(hooked, 100);
    mkdirSync(join(hooked, "src/webhooks/v1"), { recursive: true });
    for (let k = 0; k < 100; k++)
      writeFileSync(join(hooked, `src/webhooks/v1/kind${k}.webhook.ts`), webhookSource(k));
    const hookedTime = await timeIt(() => run("node", [opgen, "manifests"], { cwd: hooked }), {
      runs: quick ? 3 : 5,
    });
    rows.push(
      row("manifests.webhooks100", "ms", hookedTime, {
        note: "manifests.kinds100 plus 200 @webhook markers on 100 webhook files, new process per run",
      }),
    );

    // Seed 001: the MyApp API of the source documents.
    const seed = join(scratch, "seed001");
    cpSync(join(repo, "test/golden/crd/seed001"), seed, { recursive: true });
    const seedTime = await timeIt(() => run("node", [opgen, "manifests"], { cwd: seed }), {
      runs: quick ? 3 : 10,
    });
    rows.push(
      row("manifests.seed001", "ms", seedTime, { note: "seed 001 MyApp, new process per run" }),
    );

    // The cronjob API: controller-gen's largest fixture, with embedded Kubernetes core types.
    const cronjobCase = join(repo, "test/golden/crd/cronjobs");
    if (existsSync(cronjobCase)) {
      const cronjob = join(scratch, "cronjob");
      cpSync(cronjobCase, cronjob, { recursive: true });
      const cronTime = await timeIt(() => run("node", [opgen, "manifests"], { cwd: cronjob }), {
        runs: quick ? 3 : 10,
      });
      rows.push(
        row("manifests.cronjob", "ms", cronTime, {
          note: "controller-gen's cronjob fixture (JobTemplateSpec expanded), new process per run",
        }),
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}

export { run_ as run };
