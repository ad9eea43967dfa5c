import { useStyleSheet } from '../../lib/style-sheet';

/**
 * The results pages' own rules, added to the document by their lazily loaded chunk (esbuild does not
 * load CSS imported by a lazy chunk), so the console's first page carries none of them.
 */
const CSS = `
.results-header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem;margin:1rem 0}
.results-header h2{margin:0;overflow-wrap:anywhere}
.results-actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.results-stats{list-style:none;padding:0;margin:0 0 1.5rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem}
.results-stat{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;display:flex;flex-direction:column;gap:.15rem}
.results-stat strong{font-size:1.5rem}
.results-questions{list-style:none;padding:0;margin:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,26rem),1fr));align-items:start}
.results-question{border:1px solid var(--border);border-radius:8px;padding:1rem;min-width:0}
.results-question h3{margin:0 0 .25rem;font-size:1rem;overflow-wrap:anywhere}
.results-bars{list-style:none;padding:0;margin:.75rem 0 0;display:grid;gap:.5rem}
.results-bar-label{display:flex;justify-content:space-between;gap:.5rem;overflow-wrap:anywhere}
.results-bar{height:.5rem;border-radius:4px;background:var(--surface);border:1px solid var(--border);overflow:hidden}
.results-bar span{display:block;height:100%;background:var(--accent)}
.results-score{font-size:1.75rem;font-weight:700;margin:.5rem 0 0}
.results-samples{list-style:none;padding:0;margin:.75rem 0 0;display:grid;gap:.5rem;max-height:20rem;overflow:auto}
.results-samples li{border-left:3px solid var(--border);padding-left:.6rem;overflow-wrap:anywhere}
.results-filter{border:1px solid var(--border);border-radius:8px;padding:1rem;margin:0 0 1rem;display:grid;gap:1rem}
.results-filter fieldset{border:0;padding:0;margin:0;display:grid;gap:.5rem;min-width:0}
.results-filter legend{font-weight:600;margin-bottom:.25rem}
.results-filter-row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.results-filter-row>*{min-width:0;max-width:100%}
.results-filter-row input:not([type=checkbox]),.results-filter-row select{max-width:100%}
.results-response{border:1px solid var(--border);border-radius:8px;padding:1rem;margin:0 0 1rem;min-width:0}
.results-response header{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:space-between;align-items:center;margin-bottom:.5rem}
.results-response dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,18rem),1fr));gap:.15rem 1.5rem;margin:0}
.results-response dt{font-weight:600;margin-top:.5rem;overflow-wrap:anywhere}
.results-response dd{margin:0;overflow-wrap:anywhere;white-space:pre-wrap}
.results-response details{margin-top:.75rem}
.results-responses{list-style:none;padding:0;margin:0}
.results-chart{border:1px solid var(--border);border-radius:8px;padding:1rem;margin:0 0 1rem;min-width:0}
.results-chart h3{margin:0 0 .5rem;font-size:1rem}
.results-chart .chart{min-height:220px}
.results-view{margin-top:1rem}
.results-response ul.choice-list{list-style:none;padding:0;margin:.5rem 0 0}
.results-secret{display:flex;gap:.5rem;align-items:center;word-break:break-all}
`;

/** Adds the results pages' rules to the document (once, however many pages call it). */
export function useResultsStyles(): void {
  useStyleSheet('survey-results', CSS);
}
