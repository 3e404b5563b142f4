/**
 * One differential check of opgen's YAML writer: each document written by opgen and by yaml.v2
 * (less the exclusions), and read back by yaml.v2.
 */
import { toYaml } from "../../../src/util/yaml.js";
import type { Json } from "../shrink.js";
import { expectedFromStandIns, hasMergeKey, withStandIns } from "./exclusions.js";
import { askYamlOracle, type YamlAnswer } from "./oracle.js";

export interface Checked {
  doc: Json;
  ours: string;
  answer: YamlAnswer;
  /** What opgen should write; undefined when only the read-back can be checked. */
  expected: string | undefined;
  ok: boolean;
}

export function checkDocuments(binary: string, docs: readonly Json[]): Checked[] {
  const ours = docs.map((d) => toYaml(d));
  const answers = askYamlOracle(
    binary,
    docs.map((doc, i) => ({ doc, yaml: ours[i] })),
  );
  // Documents with a `<<` key: yaml.v2's output for them with stand-ins (exclusions.ts).
  const standIns = new Map<number, Json>();
  docs.forEach((d, i) => {
    const s = hasMergeKey(d) ? withStandIns(d) : undefined;
    if (s !== undefined) standIns.set(i, s);
  });
  const standInAnswers = askYamlOracle(
    binary,
    [...standIns.values()].map((doc) => ({ doc })),
  );
  const standInYaml = new Map([...standIns.keys()].map((i, n) => [i, standInAnswers[n]!.v2]));
  return docs.map((doc, i) => {
    const answer = answers[i]!;
    let expected: string | undefined = answer.v2;
    if (hasMergeKey(doc)) {
      const y = standInYaml.get(i);
      expected = y === undefined ? undefined : expectedFromStandIns(doc, y);
    }
    const ok =
      answer.err === undefined &&
      answer.readBack === "" &&
      (expected === undefined || ours[i] === expected);
    return { doc, ours: ours[i]!, answer, expected, ok };
  });
}
