import { afterEach, describe, expect, it, vi } from 'vitest';
import { terminalProgress } from '../../../server/flipt/declarative/progress.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

describe('progress on a terminal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says nothing when stderr is not a terminal', () => {
    expect(terminalProgress('imported', stream(false).stream)).toBeUndefined();
  });

  it('stays quiet for the first second, then shows flags/s on one line and clears it at the end', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { written, stream: tty } = stream(true);
    const progress = terminalProgress('imported', tty)!;
    progress.update(1000);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(2000);
    progress.update(10_000);
    expect(written).toEqual(['\rimported 10000 flags (5000 flags/s)\x1b[K']);
    progress.update(11_000); // within a quarter of a second: not rewritten
    expect(written).toHaveLength(1);
    progress.done();
    expect(written.at(-1)).toBe('\r\x1b[K');
  });

  it('writes nothing at the end when it never showed anything', () => {
    const { written, stream: tty } = stream(true);
    const progress = terminalProgress('exported', tty)!;
    progress.update(10);
    progress.done();
    expect(written).toEqual([]);
  });
});
