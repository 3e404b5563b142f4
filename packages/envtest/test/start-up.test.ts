/** Start-up that fails releases what it took; the kubeconfig is written owner-only and atomically. */
import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTestEnv } from "../src/index.js";
import { writeKubeconfig } from "../src/kubeconfig.js";

const input = { server: "https://127.0.0.1:1", caPem: "ca", token: "secret-token" };

describe("writeKubeconfig", () => {
  it("writes mode 0600 over an existing looser file and replaces a symlink instead of following it", () => {
    const dir = mkdtempSync(join(tmpdir(), "kc-"));
    const loose = join(dir, "loose");
    writeFileSync(loose, "old", { mode: 0o644 });
    writeKubeconfig(loose, input);
    expect(statSync(loose).mode & 0o777).toBe(0o600);
    expect(readFileSync(loose, "utf8")).toContain("secret-token");
    const target = join(dir, "target");
    writeFileSync(target, "keep me");
    const link = join(dir, "link");
    symlinkSync(target, link);
    writeKubeconfig(link, input);
    expect(lstatSync(link).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  it("names the path and the reason when it cannot write", () => {
    expect(() => writeKubeconfig("/nonexistent-folder/kc", input)).toThrow(
      "cannot write the kubeconfig /nonexistent-folder/kc: its folder does not exist; choose another path",
    );
  });
});

describe("startTestEnv", () => {
  it("rejects a start that fails after listening and releases the port", async () => {
    const first = await startTestEnv({});
    const port = Number(new URL(first.url).port);
    await first.stop();
    await expect(startTestEnv({ port, kubeconfigPath: "/nonexistent-folder/kc" })).rejects.toThrow(
      "cannot write the kubeconfig /nonexistent-folder/kc",
    );
    // The failed start let the port go: a new server can take it.
    const again = await startTestEnv({ port });
    expect(again.url).toBe(`https://127.0.0.1:${port}`);
    await again.stop();
  });
});
