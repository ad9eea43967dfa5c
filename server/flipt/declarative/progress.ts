/** How a long import or export tells a person how far it got. */
export interface Progress {
  update(flags: number): void;
  done(): void;
}

/** Quiet at first: a file that takes less than this shows no progress at all. */
const FIRST_AFTER_MS = 1000;
const EVERY_MS = 250;

/**
 * Progress on a terminal: one line, `exported 12000 flags (8100 flags/s)`, rewritten at most four
 * times a second once the work has taken a second, and cleared when it is done. Nothing when the
 * stream is not a terminal, so logs and pipes get only the final report.
 */
export function terminalProgress(verb: string, stream: NodeJS.WriteStream = process.stderr): Progress | undefined {
  if (!stream.isTTY) return undefined;
  const started = performance.now();
  let shownAt = 0;
  return {
    update(flags) {
      const now = performance.now();
      if (now - started < FIRST_AFTER_MS || now - shownAt < EVERY_MS) return;
      shownAt = now;
      const rate = Math.round(flags / ((now - started) / 1000));
      stream.write(`\r${verb} ${flags} flags (${rate} flags/s)\x1b[K`);
    },
    done() {
      if (shownAt) stream.write('\r\x1b[K');
    },
  };
}
