/**
 * The webhook builders (controller-runtime's `ctrl.NewWebhookManagedBy(mgr, obj)` and the hub/spoke
 * converter): `webhookFor(mgr, Kind).withDefaulter(d).withValidator(v).complete()` serves the typed
 * defaulter at `/mutate-<group>-<version>-<kind>` and the validator at `/validate-...` (or the paths
 * given), and `conversionFor(mgr, { group, kind, hub }).spoke("v2", conv).complete()` adds the kind
 * to `/convert`. Registering anything makes the manager start its webhook server.
 */
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import type { Manager } from "../manager/manager.js";
import type { SpokeConversion } from "../webhook/conversion.js";
import { defaultingHandler, validatingHandler } from "../webhook/handlers.js";
import { checkWebhookPath, defaultingPath, validatingPath } from "../webhook/paths.js";
import type { CustomDefaulter, CustomValidator } from "../webhook/types.js";

export interface WebhookPathOptions {
  /** A custom path instead of the generated one (it must match the `@webhook` marker's). */
  path?: string;
}

export class WebhookBuilder<T extends KubeObject> {
  private defaulter?: { impl: CustomDefaulter<T>; path?: string };
  private validator?: { impl: CustomValidator<T>; path?: string };
  private completed = false;

  constructor(
    private readonly mgr: Manager,
    private readonly kind: Kind<T>,
  ) {}

  /** Defaults objects of the kind on create and update (a mutating webhook). */
  withDefaulter(defaulter: CustomDefaulter<T>, opts: WebhookPathOptions = {}): this {
    if (opts.path !== undefined) checkWebhookPath(opts.path);
    this.defaulter = { impl: defaulter, path: opts.path };
    return this;
  }

  /** Validates creates, updates and deletes of the kind (a validating webhook). */
  withValidator(validator: CustomValidator<T>, opts: WebhookPathOptions = {}): this {
    if (opts.path !== undefined) checkWebhookPath(opts.path);
    this.validator = { impl: validator, path: opts.path };
    return this;
  }

  /** Registers the webhooks with the manager's webhook server. */
  complete(): void {
    const name = `${this.kind.kind}.${this.kind.group || "core"}/${this.kind.version}`;
    if (this.completed) throw new Error(`webhookFor(${name}).complete() called twice`);
    if (!this.defaulter && !this.validator) {
      throw new Error(
        `webhookFor(${name}).complete(): nothing to register; call withDefaulter or withValidator first`,
      );
    }
    this.completed = true;
    const server = this.mgr.webhookServer;
    const register = (path: string, make: () => Parameters<typeof server.registerAdmission>[1]) => {
      checkWebhookPath(path);
      // As controller-runtime's builder: a path already served is left as it is.
      if (server.isRegistered(path)) {
        this.mgr.log.info("webhook path already registered, skipping", { path });
        return;
      }
      server.registerAdmission(path, make());
    };
    const d = this.defaulter;
    if (d)
      register(d.path ?? defaultingPath(this.kind), () => defaultingHandler(this.kind, d.impl));
    const v = this.validator;
    if (v)
      register(v.path ?? validatingPath(this.kind), () => validatingHandler(this.kind, v.impl));
  }
}

/** Starts building the admission webhooks of `kind`. */
export function webhookFor<T extends KubeObject>(mgr: Manager, kind: Kind<T>): WebhookBuilder<T> {
  return new WebhookBuilder(mgr, kind);
}

const versionName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export class ConversionBuilder {
  // biome-ignore lint/suspicious/noExplicitAny: each spoke has its own object type
  private readonly spokes = new Map<string, SpokeConversion<any, any>>();
  private completed = false;

  constructor(
    private readonly mgr: Manager,
    private readonly kind: { group: string; kind: string; hub: string },
  ) {
    if (!kind.group || !kind.kind || !kind.hub) {
      throw new Error("conversionFor: group, kind and hub (the hub version) must be set");
    }
  }

  private get name(): string {
    return `${this.kind.kind}.${this.kind.group}`;
  }

  /** Adds a spoke version and how it converts to and from the hub. */
  // biome-ignore lint/suspicious/noExplicitAny: each spoke has its own object type
  spoke(version: string, conversion: SpokeConversion<any, any>): this {
    if (!versionName.test(version)) {
      throw new Error(`conversionFor(${this.name}).spoke: invalid version "${version}"`);
    }
    if (version === this.kind.hub) {
      throw new Error(
        `conversionFor(${this.name}).spoke: ${version} is the hub; spokes are the other versions`,
      );
    }
    if (this.spokes.has(version)) {
      throw new Error(`conversionFor(${this.name}).spoke: ${version} is already a spoke`);
    }
    if (typeof conversion?.toHub !== "function" || typeof conversion?.fromHub !== "function") {
      throw new Error(
        `conversionFor(${this.name}).spoke(${version}): the conversion needs toHub and fromHub functions`,
      );
    }
    this.spokes.set(version, conversion);
    return this;
  }

  /** Registers the kind with the manager's webhook server (served at /convert). */
  complete(): void {
    if (this.completed) throw new Error(`conversionFor(${this.name}).complete() called twice`);
    if (this.spokes.size === 0) {
      throw new Error(
        `conversionFor(${this.name}).complete(): no spokes; add one per non-hub version with spoke(version, conversion)`,
      );
    }
    this.completed = true;
    this.mgr.webhookServer.registerConversion({
      group: this.kind.group,
      kind: this.kind.kind,
      hub: this.kind.hub,
      spokes: new Map(this.spokes),
    });
  }
}

/** Starts declaring how `kind`'s versions convert through its hub version. */
export function conversionFor(
  mgr: Manager,
  kind: { group: string; kind: string; hub: string },
): ConversionBuilder {
  return new ConversionBuilder(mgr, kind);
}
