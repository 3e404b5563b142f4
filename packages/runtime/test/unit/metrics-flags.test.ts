/**
 * The secure-metrics flags of Kubebuilder v4's main.go, parsed by managerOptionsFromArgs:
 * `--metrics-bind-address` (default "0"), `--metrics-secure` (default true), the cert folder and
 * file names, and `--enable-http2` (default off).
 */
import { describe, expect, it } from "vitest";
import { FlagError, managerOptionsFromArgs } from "../../src/index.js";

const parse = (args: string[]) => managerOptionsFromArgs(args, { exitOnError: false });

describe("metrics flags", () => {
  it("default to metrics off, secure when bound, HTTP/2 off and probes on :8081", () => {
    const o = parse([]);
    expect(o.metricsBindAddress).toBe("0");
    expect(o.metricsSecure).toBe(true);
    expect(o.enableHttp2).toBeUndefined();
    expect(o.metricsCertPath).toBeUndefined();
    expect(o.healthProbeBindAddress).toBe(":8081");
  });

  it("parse the bind address, the cert folder and names, and the booleans in Go's forms", () => {
    expect(
      parse([
        "--metrics-bind-address=:8443",
        "--metrics-cert-path",
        "/tmp/k8s-metrics-server/metrics-certs",
        "-metrics-cert-name=cert.pem",
        "--metrics-cert-key",
        "key.pem",
        "--enable-http2",
      ]),
    ).toMatchObject({
      metricsBindAddress: ":8443",
      metricsSecure: true,
      metricsCertPath: "/tmp/k8s-metrics-server/metrics-certs",
      metricsCertName: "cert.pem",
      metricsCertKey: "key.pem",
      enableHttp2: true,
    });
    expect(parse(["--metrics-secure=false"]).metricsSecure).toBe(false);
    expect(parse(["--metrics-secure=true"]).metricsSecure).toBe(true);
    expect(parse(["--metrics-secure"]).metricsSecure).toBe(true);
    expect(parse(["--enable-http2=false"]).enableHttp2).toBe(false);
  });

  it("reject bad values with one line", () => {
    expect(() => parse(["--metrics-secure=no"])).toThrow(FlagError);
    expect(() => parse(["--metrics-secure=no"])).toThrow(
      /^invalid boolean value "no" for -metrics-secure$/,
    );
    expect(() => parse(["--metrics-cert-path"])).toThrow(
      /^flag needs an argument: -metrics-cert-path$/,
    );
    expect(() => parse(["--metrics-tls"])).toThrow(/^flag provided but not defined: -metrics-tls/);
  });

  it("document every metrics flag and its default in --help", () => {
    const out: string[] = [];
    const write = process.stdout.write;
    const exit = process.exit;
    process.stdout.write = ((s: string) => {
      out.push(s);
      return true;
    }) as typeof process.stdout.write;
    process.exit = ((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit;
    try {
      expect(() => managerOptionsFromArgs(["--help"])).toThrow("exit 0");
    } finally {
      process.stdout.write = write;
      process.exit = exit;
    }
    const usage = out.join("");
    expect(usage).toMatch(/--metrics-bind-address string .*Use :8443 for HTTPS.*\(default "0"\)/);
    expect(usage).toMatch(
      /--metrics-secure .*--metrics-secure=false to use HTTP.*\(default true\)/,
    );
    expect(usage).toMatch(/--metrics-cert-path string/);
    expect(usage).toMatch(/--metrics-cert-name string .*\(default "tls.crt"\)/);
    expect(usage).toMatch(/--metrics-cert-key string .*\(default "tls.key"\)/);
    expect(usage).toMatch(/--enable-http2 /);
    expect(usage).toMatch(/--health-probe-bind-address string .*\(default ":8081"\)/);
  });
});
