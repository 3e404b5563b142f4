/**
 * The controller builder (controller-runtime's pkg/builder): declares what a controller reconciles
 * (`for`, given by `manager.controller(kind)`), what it owns, what else it watches, with which
 * predicates and options, and registers it with the manager on `complete`.
 */
import type { Kind } from "../api/kind.js";
import type { KubeObject } from "../api/types.js";
import type { Cache } from "../cache/cache.js";
import {
  Controller,
  type ControllerDeps,
  type ControllerOptions,
} from "../controller/controller.js";
import { enqueueForObject, enqueueForOwner, type MapFunc } from "../handler/handler.js";
import type { Predicate } from "../predicate/predicate.js";
import type { Reconciler } from "../reconcile/reconcile.js";

/** What the builder needs from the manager. */
export interface BuilderHost {
  cache: Cache;
  controllerDeps(): ControllerDeps;
  defaultControllerOptions(): ControllerOptions;
  register(controller: Controller): void;
}

export interface WatchOptions<O extends KubeObject> {
  predicates?: Predicate<O>[];
  /**
   * Watch PartialObjectMetadata only (controller-runtime's WatchesMetadata / OnlyMetadata): the
   * cache keeps each object's metadata, not its spec, status or data. Handlers and predicates then
   * see objects with `metadata` only, and reads need `{ metadataOnly: true }`.
   */
  metadataOnly?: boolean;
}

export interface OwnsOptions<O extends KubeObject> extends WatchOptions<O> {
  /** Also route objects that list the owner without controller=true (default false). */
  anyOwner?: boolean;
}

interface SourceSpec {
  kind: Kind;
  metadataOnly: boolean;
  map: MapFunc<KubeObject>;
  predicates: Predicate<KubeObject>[];
}

export class Builder<T extends KubeObject> {
  private name?: string;
  private readonly forPredicates: Predicate<T>[] = [];
  private readonly globalPredicates: Predicate<KubeObject>[] = [];
  private readonly sources: SourceSpec[] = [];
  private opts: ControllerOptions = {};
  private completed = false;

  constructor(
    private readonly host: BuilderHost,
    private readonly forKind: Kind<T>,
  ) {}

  /** Names the controller (default: the lower-cased kind); used in metrics and logs. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** Predicates on the reconciled kind's own events (`For(obj, WithPredicates(...))`). */
  withPredicates(...predicates: Predicate<T>[]): this {
    this.forPredicates.push(...predicates);
    return this;
  }

  /** Predicates applied to every watched source (`WithEventFilter`). */
  withEventFilter(...predicates: Predicate<KubeObject>[]): this {
    this.globalPredicates.push(...predicates);
    return this;
  }

  /** Reconciles the controller owner (of the `for` kind) when an owned object changes. */
  owns<O extends KubeObject>(kind: Kind<O>, opts: OwnsOptions<O> = {}): this {
    this.sources.push({
      kind,
      metadataOnly: opts.metadataOnly ?? false,
      map: enqueueForOwner(this.forKind, { onlyController: !opts.anyOwner }) as MapFunc<KubeObject>,
      predicates: (opts.predicates ?? []) as Predicate<KubeObject>[],
    });
    return this;
  }

  /** Reconciles whatever `map` returns when an object of `kind` changes. */
  watches<O extends KubeObject>(kind: Kind<O>, map: MapFunc<O>, opts: WatchOptions<O> = {}): this {
    this.sources.push({
      kind,
      metadataOnly: opts.metadataOnly ?? false,
      map: map as MapFunc<KubeObject>,
      predicates: (opts.predicates ?? []) as Predicate<KubeObject>[],
    });
    return this;
  }

  /** Controller options (maxConcurrentReconciles, backoff, reconcile timeout...). */
  options(opts: ControllerOptions): this {
    this.opts = { ...this.opts, ...opts };
    return this;
  }

  /** Builds the controller, wires its sources into the cache and registers it. */
  complete(reconciler: Reconciler): Controller {
    if (this.completed) throw new Error("complete() called twice on one builder");
    this.completed = true;
    const name = this.name ?? this.forKind.kind.toLowerCase();
    const controller = new Controller(
      name,
      reconciler,
      { ...this.host.defaultControllerOptions(), ...this.opts },
      this.host.controllerDeps(),
    );
    const global = this.globalPredicates as Predicate<T>[];
    controller.watch(this.host.cache.informerFor(this.forKind), enqueueForObject<T>(), [
      ...global,
      ...this.forPredicates,
    ]);
    for (const src of this.sources) {
      const informer = this.host.cache.informerFor(src.kind, { metadataOnly: src.metadataOnly });
      controller.watch(informer, src.map, [...this.globalPredicates, ...src.predicates]);
    }
    this.host.register(controller);
    return controller;
  }
}
