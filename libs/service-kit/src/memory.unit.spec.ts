import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fullCollection, releaseMemoryWhenIdle } from './memory.ts';

const MB = 1024 * 1024;

describe('releaseMemoryWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A process whose event loop, heap and RSS the test sets between ticks; a collection leaves `afterCollect`. */
  function fakeProcess(
    start: { busy: number; committed: number; used: number; rss?: number },
    afterCollect: { committed: number; used: number; rss?: number } = { committed: 20 * MB, used: 19 * MB },
    settleAfterMs = 600_000,
  ) {
    const state = { rss: 70 * MB, ...start };
    const collect = vi.fn(() => Object.assign(state, { rss: 70 * MB, ...afterCollect }));
    const trim = vi.fn();
    const release = releaseMemoryWhenIdle({
      everyMs: 1_000,
      idleForMs: 3_000,
      utilization: () => state.busy,
      heap: () => ({ committed: state.committed, used: state.used }),
      rss: () => state.rss,
      collect,
      trim,
      settleAfterMs,
    });
    return { state, collect, trim, release };
  }

  it('collects once the start-up burst is over and the loop has been idle a while, then leaves an idle process alone', () => {
    const { state, collect, release } = fakeProcess({ busy: 0.9, committed: 40 * MB, used: 25 * MB });
    vi.advanceTimersByTime(5_000);
    expect(collect).not.toHaveBeenCalled(); // still busy starting
    state.busy = 0.01;
    vi.advanceTimersByTime(2_000);
    expect(collect).not.toHaveBeenCalled(); // not idle long enough yet
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(release.collections).toBe(1);
    release.stop();
  });

  it("trims malloc at the look after a collection (V8's background threads free what it found dead after it returns), once", () => {
    const { collect, trim, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 25 * MB });
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(trim).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(trim).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    expect(trim).toHaveBeenCalledTimes(1);
    release.stop();
  });

  it('never collects while the loop is busy, however much the heap holds spare', () => {
    const { collect, release } = fakeProcess({ busy: 0.3, committed: 80 * MB, used: 20 * MB });
    vi.advanceTimersByTime(30_000);
    expect(collect).not.toHaveBeenCalled();
    release.stop();
  });

  it('does not collect a heap with little spare', () => {
    const { collect, release } = fakeProcess({ busy: 0, committed: 22 * MB, used: 20 * MB });
    vi.advanceTimersByTime(30_000);
    expect(collect).not.toHaveBeenCalled();
    release.stop();
  });

  it('collects once more, after as long idle, when the first left much unused; then not again while the heap does not grow', () => {
    const { collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 20 * MB }, { committed: 30 * MB, used: 22 * MB });
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(30_000);
    expect(collect).toHaveBeenCalledTimes(2);
    release.stop();
  });

  it('collects again after a later burst has grown the heap', () => {
    const { state, collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 25 * MB });
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    Object.assign(state, { busy: 0.8, committed: 36 * MB, used: 28 * MB }); // requests: the young generation grows
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(1);
    state.busy = 0;
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(2);
    release.stop();
  });

  it("collects when idle after the process's RSS grew, though the heap holds little spare (malloc's share grew)", () => {
    const { state, collect, release } = fakeProcess(
      { busy: 0, committed: 22 * MB, used: 20 * MB },
      { committed: 22 * MB, used: 20 * MB, rss: 72 * MB },
    );
    vi.advanceTimersByTime(30_000);
    expect(collect).not.toHaveBeenCalled(); // RSS as it was when the release began
    Object.assign(state, { busy: 0.6, rss: 79 * MB }); // requests
    vi.advanceTimersByTime(5_000);
    expect(collect).not.toHaveBeenCalled();
    state.busy = 0;
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    // then not again while it stays below the RSS that collection left plus the slack
    state.rss = 75 * MB;
    vi.advanceTimersByTime(30_000);
    expect(collect).toHaveBeenCalledTimes(1);
    release.stop();
  });

  it('makes one settling pass once idle for settleAfterMs after a release (what the burst opened has closed), then no more', () => {
    const { collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 25 * MB }, undefined, 10_000);
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(9_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(120_000);
    expect(collect).toHaveBeenCalledTimes(2);
    release.stop();
  });

  it('starts the settling count again at a busy look', () => {
    const { state, collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 25 * MB }, undefined, 10_000);
    vi.advanceTimersByTime(3_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(8_000);
    state.busy = 0.5; // a request or two: not enough to grow the heap or the RSS
    vi.advanceTimersByTime(1_000);
    state.busy = 0;
    vi.advanceTimersByTime(9_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
    release.stop();
  });

  it('needs the idle looks in a row: a busy look starts the count again', () => {
    const { state, collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 20 * MB });
    vi.advanceTimersByTime(2_000);
    state.busy = 0.5;
    vi.advanceTimersByTime(1_000);
    state.busy = 0;
    vi.advanceTimersByTime(2_000);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    release.stop();
  });

  it('stops looking once stopped', () => {
    const { collect, release } = fakeProcess({ busy: 0, committed: 40 * MB, used: 20 * MB });
    release.stop();
    vi.advanceTimersByTime(30_000);
    expect(collect).not.toHaveBeenCalled();
  });
});

describe('fullCollection', () => {
  it("is V8's full collection: the young generation is emptied", () => {
    const keep: unknown[] = [];
    for (let i = 0; i < 10_000; i++) keep.push({ i });
    keep.length = 0;
    fullCollection()();
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!;
    expect(young.space_used_size).toBeLessThan(256 * 1024);
  });

  it('leaves gc unexposed to scripts', () => {
    fullCollection();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});
