/**
 * A local npm registry (Verdaccio) for one test file: the named packages are served and published
 * here only, everything else is proxied to the registry npm is configured with. npm and npx run
 * with `env`, which points them at it through a user config of their own, never the user's.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { execa } from "execa";
import { runServer } from "verdaccio";
import { tempDir } from "./cli.js";

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The uplink every other package comes from. */
  uplink: string;
  /**
   * The whole environment for commands run against this registry (pass it with `extendEnv:
   * false`): this process's, without the npm_config_* that an npm running the tests exports from
   * the user's configuration (they would outrank the user config below), plus the registry, a
   * user config holding the publish token, and a cache whose npx folder is private to this
   * registry but whose package store is the user's, so packages fetched before are not
   * downloaded again. The npm and npx started inherit all of it.
   */
  env: Record<string, string>;
  /** `npm publish <tarball>` to this registry (the tarball as it is: no scripts run). */
  publish(tarball: string): Promise<void>;
  /** Closes the server; its storage is removed with the test file's temp folders. */
  stop(): Promise<void>;
}

/** The user's npm settings this registry builds on: its uplink and package cache. */
function npmSettings(): { registry: string; cache: string } {
  const out = execFileSync("npm", ["config", "get", "registry", "cache"], {
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  const value = (key: string) => {
    const line = out.split(/\r?\n/).find((l) => l.startsWith(`${key}=`));
    if (!line) throw new Error(`npm config get ${key} printed nothing: ${out}`);
    return line.slice(key.length + 1).trim();
  };
  return { registry: value("registry"), cache: value("cache") };
}

export async function startLocalRegistry(options: {
  /** Package names (or Verdaccio patterns such as `@scope/*`) served from this registry only. */
  local: string[];
}): Promise<LocalRegistry> {
  const dir = tempDir("opgen-registry-");
  const settings = npmSettings();
  const uplink = settings.registry.endsWith("/") ? settings.registry : `${settings.registry}/`;
  const packages: Record<string, object> = {};
  // No proxy for these: a name taken on the public registry must not shadow or merge with ours.
  for (const name of options.local) {
    packages[name] = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  }
  packages["**"] = { access: "$all", publish: "$authenticated", proxy: "uplink" };
  const config = {
    storage: join(dir, "storage"),
    // One test user; bcrypt's cheapest cost, since its password guards nothing.
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1, rounds: 4 } },
    // Uplink tarballs are streamed, not stored: npm's own cache keeps them.
    uplinks: { uplink: { url: uplink, cache: false, timeout: "60s", max_fails: 5 } },
    packages,
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "warn" },
  };
  // JSON is YAML; a file gives Verdaccio the folder its relative paths would start from.
  const configPath = join(dir, "config.yaml");
  writeFileSync(configPath, JSON.stringify(config, null, 2));

  const server = (await runServer(configPath)) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Port 0: the kernel picks a free port, no guessing and no race with other test files.
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  try {
    const ping = await fetch(`${url}-/ping`);
    if (!ping.ok) throw new Error(`${url}-/ping answered ${ping.status}`);
    // What `npm adduser` does: the first user is created and given a token.
    const user = "opgen-test";
    const res = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: "opgen-test-password" }),
    });
    const body = (await res.json()) as { token?: string; error?: string };
    if (!res.ok || !body.token) {
      throw new Error(`adding the publish user failed: ${res.status} ${JSON.stringify(body)}`);
    }

    const userconfig = join(dir, "npmrc");
    const authKey = `//127.0.0.1:${port}/:_authToken`;
    writeFileSync(
      userconfig,
      [
        `registry=${url}`,
        `${authKey}=${body.token}`,
        "audit=false",
        "fund=false",
        "update-notifier=false",
        "loglevel=error",
        "",
      ].join("\n"),
    );
    // npx installs into <cache>/_npx/<hash of the spec>: a shared one would run a package
    // installed from an earlier registry under the same version. _cacache is content-addressed
    // (tarballs by integrity), so sharing the user's is safe and saves the downloads.
    const cache = join(dir, "npm-cache");
    mkdirSync(cache);
    mkdirSync(join(settings.cache, "_cacache"), { recursive: true });
    symlinkSync(join(settings.cache, "_cacache"), join(cache, "_cacache"), "junction");
    const inherited = Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !/^npm_config_/i.test(e[0]),
    );
    const env = {
      ...Object.fromEntries(inherited),
      npm_config_registry: url,
      npm_config_userconfig: userconfig,
      npm_config_cache: cache,
    };
    return {
      url,
      uplink,
      env,
      async publish(tarball) {
        await execa("npm", ["publish", tarball, "--registry", url, "--ignore-scripts"], {
          env,
          extendEnv: false,
          all: true,
        });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
