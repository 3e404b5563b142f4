// The soak's faults, in the order one cycle injects them (the storms last, so that convergence is
// measured from the heaviest fault), each with what it models in a real
// cluster (docs/reliability.md repeats these). `inject` returns a note for the report; storms last
// `ctx.stormMs` and fail every matching request meanwhile.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Every verb but patch: the writer, standing in for users and other controllers, changes Widgets
// with merge patches that a storm lets through, so changes pile up that the operator cannot act on.
const OPERATOR_VERBS = ["get", "list", "watch", "create", "update", "delete"];

/** Fails every matching request of the operator for `ms`, then lifts the failure. */
async function storm(ctx, opts, ms = ctx.stormMs) {
  for (const verb of opts.verb ? [opts.verb] : OPERATOR_VERBS) {
    ctx.env.faults.failNext({ ...opts, verb, count: Number.MAX_SAFE_INTEGER });
  }
  await sleep(ms);
  ctx.env.faults.reset();
}

export const FAULTS = [
  {
    name: "leader SIGKILL",
    models:
      "the leader's node or process dies (OOM kill, node loss): no lease release, the standby waits out the lease duration",
    leaderKill: true,
    inject: (ctx) => killLeader(ctx, "SIGKILL"),
  },
  {
    name: "leader graceful stop",
    models:
      "a rolling update or drain: the leader gets SIGTERM, finishes its reconciles, releases the lease; the standby takes over at its next retry",
    leaderKill: true,
    inject: (ctx) => killLeader(ctx, "SIGTERM"),
  },
  {
    name: "watch drop",
    models:
      "the API server (or a load balancer in front of it) ends every watch stream; clients re-watch from their last resourceVersion",
    async inject(ctx) {
      for (let i = 0; i < 3; i++) {
        ctx.env.faults.dropWatches();
        await sleep(300);
      }
      return "all watches ended 3 times, 300 ms apart";
    },
  },
  {
    name: "410 Gone",
    models:
      "etcd compaction while a client is disconnected: the re-watch from its last resourceVersion gets 410 Expired and it must relist",
    async inject(ctx) {
      // The re-watches fail while writes go on, then the history they would resume from is compacted.
      ctx.env.faults.failNext({ verb: "watch", code: 500, count: 4 });
      ctx.env.faults.dropWatches();
      await sleep(500);
      ctx.env.faults.expireHistory();
      await sleep(500);
      ctx.env.faults.reset();
      return "watches ended, re-watches failed, history compacted";
    },
  },
  {
    name: "API server restart",
    models:
      "a kube-apiserver restart or fail-over: every connection is reset and refused until it listens again; the store (etcd) survives",
    async inject(ctx) {
      await ctx.env.restart();
      return "closed every connection and listened again on the same port";
    },
  },
  {
    name: "409 storm",
    models:
      "other writers racing the operator: every update of a Widget's status fails with 409 Conflict",
    async inject(ctx) {
      await storm(ctx, { verb: "update", resource: "widgets", code: 409 });
      return `every Widget status update refused for ${ctx.stormMs} ms`;
    },
  },
  {
    name: "429 storm",
    models:
      "API Priority and Fairness throttling the operator's flow: every request it makes (gets, lists, watches, status updates, lease renewals) gets 429 with Retry-After: 1",
    async inject(ctx) {
      await storm(ctx, { code: 429, retryAfter: 1 });
      return `every operator request refused for ${ctx.stormMs} ms`;
    },
  },
  {
    name: "5xx storm",
    models:
      "an overloaded or failing API server: every request of the operator gets 500, then 503 with Retry-After: 1 (lease renewals included)",
    async inject(ctx) {
      await storm(ctx, { code: 500 }, ctx.stormMs / 2);
      await storm(ctx, { code: 503, retryAfter: 1 }, ctx.stormMs / 2);
      return `every operator request failed for ${ctx.stormMs} ms`;
    },
  },
];

async function killLeader(ctx, signal) {
  const { replicas, leaseMs, renewMs } = ctx;
  // A hand-over from the previous fault may still be under way.
  const bound = leaseMs + renewMs + 10_000;
  let leader = replicas.leader();
  if (!leader) {
    await replicas.waitForLeader({ after: 0, timeoutMs: bound });
    leader = replicas.leader();
  }
  if (!leader) {
    ctx.failures.push(`${signal}: no leader to stop within ${bound} ms`);
    return "no leader";
  }
  const at = performance.timeOrigin + performance.now();
  replicas.kill(leader, signal);
  const next = await replicas.waitForLeader({ after: at, not: leader, timeoutMs: bound });
  if (!next) {
    ctx.failures.push(`${signal}: no new leader within ${bound} ms of stopping ${leader.name}`);
    return `stopped ${leader.name}; no successor`;
  }
  const ms = next.leaderAt - at;
  ctx.handovers.push({ signal, ms, from: leader.name, to: next.name });
  return `${leader.name} → ${next.name} in ${(ms / 1000).toFixed(2)} s`;
}
