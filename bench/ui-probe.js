/**
 * In-page probe of the UI benchmark (bench/ui-bench.ts), installed with Playwright's addInitScript
 * before any of the app's scripts run. Plain browser JavaScript on purpose: it is injected as
 * text, not bundled.
 *
 * What it measures, all on the page's own clock (performance.now(), whose origin is the
 * navigation start):
 * - first render: when `[data-testid="result-bits"]` first gets text, and when the frame that
 *   shows it has been rendered; and the page's own first contentful paint, once reported;
 * - each armed edit: from the trusted input event's `timeStamp` (when the browser received the
 *   input, so time the event waited in the queue counts) to the end of the first frame rendered
 *   after the result text changed.
 *
 * "Frame rendered" is observed as a task posted from a requestAnimationFrame callback: it runs
 * once the browser has finished that frame's style, layout and paint on the main thread. The
 * compositor's raster and display that follow are not visible from the page and not counted.
 */
(() => {
  const RESULT = '[data-testid="result-bits"]';
  const state = {
    lastText: null,
    firstPaint: null,
    firstPaintWaiters: [],
    /**
     * The input awaited: { type, key, startMs, handledMs }; when it arrives, startMs is its
     * timeStamp and handledMs the time the page began handling it.
     */
    armed: null,
    /** Finished samples not yet collected, and the collector waiting for one. */
    samples: [],
    sampleWaiter: null,
    /** Result changes that no armed input explains (should stay empty). */
    unexplained: [],
  };

  /**
   * Calls back after the next frame has been rendered on the main thread, with that frame's
   * time (the rAF timestamp, the same for every callback of one frame).
   */
  function afterNextFrame(callback) {
    requestAnimationFrame((frameTime) => {
      const frameStartMs = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => callback(frameStartMs, performance.now(), frameTime);
      channel.port2.postMessage(null);
    });
  }

  function onInput(event) {
    const armed = state.armed;
    if (!armed || armed.startMs !== null || !event.isTrusted || event.type !== armed.type) return;
    if (armed.key !== null && event.key !== armed.key) return;
    armed.startMs = event.timeStamp;
    armed.handledMs = performance.now();
    // The first frame after the input: did it show the result?
    requestAnimationFrame((frameTime) => {
      armed.firstFrameTime = frameTime;
    });
  }
  window.addEventListener('pointerdown', onInput, true);
  window.addEventListener('keydown', onInput, true);

  function deliver(sample) {
    const waiter = state.sampleWaiter;
    if (waiter) {
      state.sampleWaiter = null;
      waiter(sample);
    } else state.samples.push(sample);
  }

  function onMutation() {
    const el = document.querySelector(RESULT);
    const text = el ? el.textContent : null;
    if (text === null || text === '' || text === state.lastText) return;
    const domMs = performance.now();
    const first = state.lastText === null;
    state.lastText = text;
    if (first) {
      afterNextFrame((frameStartMs, paintedMs) => {
        state.firstPaint = { text, domMs, frameStartMs, paintedMs };
        for (const w of state.firstPaintWaiters.splice(0)) w(state.firstPaint);
      });
      return;
    }
    const armed = state.armed;
    if (!armed || armed.startMs === null) {
      state.unexplained.push({ text, domMs });
      return;
    }
    state.armed = null;
    const { startMs, handledMs } = armed;
    afterNextFrame((frameStartMs, paintedMs, frameTime) =>
      deliver({
        text,
        startMs,
        handledMs,
        domMs,
        frameStartMs,
        paintedMs,
        firstFrame: frameTime === armed.firstFrameTime,
      }),
    );
  }
  new MutationObserver(onMutation).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  });

  // When the page became live: `#root` got `data-live` (the page and the answer's parts have
  // committed, src/ui/page-live.ts).
  let liveMs = null;
  const liveObserver = new MutationObserver(() => {
    if (liveMs === null && document.querySelector('#root[data-live]')) {
      liveMs = performance.now();
      liveObserver.disconnect();
    }
  });
  liveObserver.observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ['data-live'],
  });

  function withTimeout(promise, ms, what) {
    return Promise.race([
      promise,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms),
      ),
    ]);
  }

  window.__uiBench = {
    /** Wait for the next trusted `type` event (and `key`, for keys) as the start of an edit. */
    arm(type, key) {
      state.armed = {
        type,
        key: key ?? null,
        startMs: null,
        handledMs: null,
        firstFrameTime: null,
      };
      state.samples.length = 0;
      state.sampleWaiter = null;
    },
    /** The armed edit's sample, once its result has been rendered. */
    next(timeoutMs) {
      if (state.samples.length > 0) return Promise.resolve(state.samples.shift());
      const armed = state.armed;
      const p = new Promise((resolve) => {
        state.sampleWaiter = resolve;
      });
      return withTimeout(
        p,
        timeoutMs,
        armed && armed.startMs === null
          ? `no trusted ${armed.type} event reached the page`
          : 'the result did not change after the input',
      );
    },
    firstPaint(timeoutMs) {
      if (state.firstPaint) return Promise.resolve(state.firstPaint);
      const p = new Promise((resolve) => state.firstPaintWaiters.push(resolve));
      return withTimeout(p, timeoutMs, 'the result bits never appeared');
    },
    /**
     * The page's first-contentful-paint time, or null when none is reported within `timeoutMs`.
     * Chromium adds the entry only once the compositor reports the frame presented, which can be
     * well after the frame has been rendered on the main thread (when `firstPaint` resolves), so
     * reading the paint entries at that moment finds none: wait for it with a buffered observer.
     */
    firstContentfulPaint(timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          observer.disconnect();
          resolve(null);
        }, timeoutMs);
        const observer = new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (!entry) return;
          clearTimeout(timer);
          observer.disconnect();
          resolve(entry.startTime);
        });
        observer.observe({ type: 'paint', buffered: true });
      });
    },
    /** When `#root[data-live]` appeared (ms from the navigation start), or null so far. */
    liveAt: () => liveMs,
    resultText: () => state.lastText,
    unexplained: () => state.unexplained.slice(),
    /** Gaps between `count + 1` consecutive animation frames: the browser's frame cadence. */
    frameGaps(count) {
      return new Promise((resolve) => {
        const stamps = [];
        const tick = (t) => {
          stamps.push(t);
          if (stamps.length > count) resolve(stamps.slice(1).map((x, i) => x - stamps[i]));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    },
  };
})();
