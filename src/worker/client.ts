import type { EngineApi } from './api.ts';

/**
 * The UI's handle on the engine worker. Requests go on named channels where only the newest
 * matters: a request not yet sent is replaced by a newer one (dropped, never computed), and an
 * answer to a request that a newer one has superseded is ignored. If the worker throws outside a
 * call or does not answer in time, it is terminated and a fresh one takes over the pending
 * requests; after repeated failures the engine runs on the main thread instead.
 */

export type AsyncApi = {
  [K in keyof EngineApi]: (
    ...args: Parameters<EngineApi[K]>
  ) => Promise<Awaited<ReturnType<EngineApi[K]>>>;
};

export interface Endpoint {
  readonly api: AsyncApi;
  terminate(): void;
}

export type Health = 'ready' | 'restarting' | 'main-thread';

export interface ClientOptions {
  /** Start a worker; call `onFailure` when it reports an uncaught error. */
  spawn: (onFailure: (why: string) => void) => Endpoint;
  /** The engine on the main thread, used after `maxRestarts` failures in a row. */
  fallback: () => Promise<Endpoint>;
  /** Default time a request may take before the worker is judged hung. */
  timeoutMs: number;
  maxRestarts: number;
  onHealth: (health: Health, message: string | null) => void;
}

export type Answer<T> =
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'superseded' }
  | { readonly status: 'error'; readonly message: string };

interface Job {
  readonly id: number;
  readonly call: (api: AsyncApi) => Promise<unknown>;
  readonly resolve: (answer: Answer<unknown>) => void;
  readonly timeoutMs: number;
  generation: number;
  attempts: number;
  timer: ReturnType<typeof setTimeout> | null;
}

interface Channel {
  inflight: Job | null;
  queued: Job | null;
}

export class EngineClient {
  private endpoint: Endpoint | null = null;
  private generation = 0;
  private nextId = 1;
  private failuresInARow = 0;
  private onMainThread = false;
  private recovering = false;
  private readonly channels = new Map<string, Channel>();

  constructor(private readonly options: ClientOptions) {}

  /** Start the worker now (otherwise the first request starts it). */
  start(): void {
    if (!this.endpoint && !this.recovering) this.endpoint = this.spawn();
  }

  /** Run `call` as the newest request of `channel`. */
  request<T>(
    channel: string,
    call: (api: AsyncApi) => Promise<T>,
    timeoutMs = this.options.timeoutMs,
  ): Promise<Answer<T>> {
    return new Promise<Answer<T>>((resolve) => {
      const job: Job = {
        id: this.nextId++,
        call,
        resolve: resolve as (a: Answer<unknown>) => void,
        timeoutMs,
        generation: -1,
        attempts: 0,
        timer: null,
      };
      const ch = this.channel(channel);
      if (ch.inflight) {
        ch.queued?.resolve({ status: 'superseded' });
        ch.queued = job;
      } else {
        this.send(ch, job);
      }
    });
  }

  /** Fire-and-forget call with no channel (a sweep's cancel). */
  notify(call: (api: AsyncApi) => Promise<unknown>): void {
    this.start();
    call(this.endpoint!.api).catch(() => undefined);
  }

  /**
   * The in-flight request of `channel` reported progress: restart its timeout, so a long job (a
   * sweep) is judged hung by a silence of `timeoutMs`, not by its total length.
   */
  keepAlive(channel: string): void {
    const job = this.channels.get(channel)?.inflight;
    if (job && job.timer !== null && job.generation === this.generation && !this.recovering)
      this.armTimeout(job);
  }

  /** Ids of requests currently on their way (for tests). */
  pendingIds(): number[] {
    return [...this.channels.values()]
      .flatMap((c) => [c.inflight?.id, c.queued?.id])
      .filter((x): x is number => x !== undefined);
  }

  dispose(): void {
    this.generation++;
    this.endpoint?.terminate();
    this.endpoint = null;
  }

  private channel(name: string): Channel {
    let ch = this.channels.get(name);
    if (!ch) {
      ch = { inflight: null, queued: null };
      this.channels.set(name, ch);
    }
    return ch;
  }

  private spawn(): Endpoint {
    const generation = this.generation;
    return this.options.spawn((why) => {
      if (generation === this.generation) void this.recover(`the engine worker failed (${why})`);
    });
  }

  private send(ch: Channel, job: Job): void {
    ch.inflight = job;
    if (this.recovering) return; // sent again once the new endpoint is up
    this.start();
    const generation = this.generation;
    job.generation = generation;
    job.attempts++;
    this.armTimeout(job);
    const settle = (answer: Answer<unknown>) => {
      // An answer from a terminated worker, or to a request already handled: ignore it.
      if (generation !== this.generation || ch.inflight !== job) return;
      if (job.timer !== null) clearTimeout(job.timer);
      this.failuresInARow = 0;
      ch.inflight = null;
      const next = ch.queued;
      ch.queued = null;
      if (next) {
        job.resolve({ status: 'superseded' });
        this.send(ch, next);
      } else {
        job.resolve(answer);
      }
    };
    job.call(this.endpoint!.api).then(
      (value) => settle({ status: 'ok', value }),
      (err: unknown) =>
        settle({ status: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  }

  /** Judge the worker hung if `job` gets no answer (or keep-alive) within its timeout. */
  private armTimeout(job: Job): void {
    if (job.timer !== null) clearTimeout(job.timer);
    job.timer = setTimeout(() => {
      if (job.generation === this.generation)
        void this.recover(`the engine did not answer within ${job.timeoutMs} ms`);
    }, job.timeoutMs);
  }

  private async recover(reason: string): Promise<void> {
    if (this.recovering) return;
    this.recovering = true;
    this.generation++;
    this.endpoint?.terminate();
    this.endpoint = null;
    this.failuresInARow++;
    for (const ch of this.channels.values())
      if (ch.inflight?.timer) clearTimeout(ch.inflight.timer);
    const toMainThread = this.onMainThread || this.failuresInARow > this.options.maxRestarts;
    this.options.onHealth('restarting', `${reason}; restarting it`);
    try {
      if (toMainThread) {
        this.endpoint = await this.options.fallback();
        this.onMainThread = true;
      } else {
        this.endpoint = this.spawn();
      }
    } finally {
      this.recovering = false;
    }
    this.options.onHealth(
      this.onMainThread ? 'main-thread' : 'ready',
      this.onMainThread
        ? `${reason}; the engine now runs on the main thread`
        : `${reason}; restarted it`,
    );
    for (const ch of this.channels.values()) {
      const job = ch.queued ?? ch.inflight;
      if (ch.queued && ch.inflight) ch.inflight.resolve({ status: 'superseded' });
      ch.queued = null;
      ch.inflight = null;
      if (!job) continue;
      // A request that already failed a worker once is not sent again: it may be the cause.
      if (job.attempts >= 2) job.resolve({ status: 'error', message: reason });
      else this.send(ch, job);
    }
  }
}
