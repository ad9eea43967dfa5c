// Every budget a bench checks goes through `verdict`: printed with its figure and whether it is met, and
// recorded for bench/run.mjs (in the file BENCH_VERDICTS names), which prints each bench's summary line and
// the change against the figures of the last run kept in bench/results.json.
import { appendFileSync } from 'node:fs';

export interface Verdict {
  /** What is budgeted, unique within its bench: the key of its figure in bench/results.json. */
  budget: string;
  /** The figure compared with the budget, when it is one number (a ratio, ms, a share); else null. */
  figure: number | null;
  /** The figure as printed, with whatever explains it. */
  measured: string;
  /** The budget as printed ("at most 3x bare"). */
  limit: string;
  met: boolean;
}

export function verdict(result: Verdict): boolean {
  console.log(`${result.met ? 'met    ' : 'NOT MET'}  ${result.budget}: ${result.measured} (budget: ${result.limit})`);
  const file = process.env.BENCH_VERDICTS;
  if (file) appendFileSync(file, `${JSON.stringify(result)}\n`);
  return result.met;
}

/** A figure as kept in bench/results.json: whole numbers (bytes, counts) as they are, others to 3 significant digits. */
const kept = (figure: number) => (Number.isInteger(figure) ? figure : Number(figure.toPrecision(3)));

/** A budget "at most `limit`" on a figure: its verdict, printed and recorded. */
export const atMost = (budget: string, figure: number, limit: number, measured: string, limitText: string) =>
  verdict({ budget, figure: kept(figure), measured, limit: limitText, met: figure <= limit });

/** A budget "at least `limit`" on a figure: its verdict, printed and recorded. */
export const atLeast = (budget: string, figure: number, limit: number, measured: string, limitText: string) =>
  verdict({ budget, figure: kept(figure), measured, limit: limitText, met: figure >= limit });
