import { useEffect, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import { useStyleSheet } from '../lib/style-sheet';

/**
 * The part of uPlot's stylesheet the chart needs (no legend, no title). esbuild does not load CSS
 * imported by a lazily loaded chunk, so the chart adds it to the document itself.
 */
const UPLOT_CSS =
  '.uplot,.uplot *{box-sizing:border-box}.uplot{line-height:1.5;width:min-content}' +
  '.u-wrap{position:relative;user-select:none}.u-over,.u-under{position:absolute}.u-under{overflow:hidden}' +
  '.uplot canvas{display:block;position:relative;width:100%;height:100%}.u-axis{position:absolute}' +
  '.u-select{background:rgba(0,0,0,.07);position:absolute;pointer-events:none}' +
  '.u-cursor-x,.u-cursor-y{position:absolute;left:0;top:0;pointer-events:none;will-change:transform}' +
  '.u-hz .u-cursor-x{height:100%;border-right:1px dashed var(--muted)}.u-hz .u-cursor-y{width:100%;border-bottom:1px dashed var(--muted)}' +
  '.u-cursor-pt{position:absolute;top:0;left:0;border-radius:50%;border:0 solid;pointer-events:none;will-change:transform;background-clip:padding-box!important}' +
  '.u-axis.u-off,.u-select.u-off,.u-cursor-x.u-off,.u-cursor-y.u-off,.u-cursor-pt.u-off{display:none}';

const THEME_VARIABLES = ['--fg', '--muted', '--border', '--accent'] as const;

/** The theme's colours as one string, so that it compares by value. */
function readColors(): string {
  const style = getComputedStyle(document.documentElement);
  return THEME_VARIABLES.map((name) => style.getPropertyValue(name).trim()).join('|');
}

/**
 * The current theme's colours (a canvas cannot use CSS variables). They change when the layout sets
 * another `data-theme` on the root, or when the system scheme changes under the 'system' theme.
 */
function subscribeToTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const scheme = window.matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    scheme.removeEventListener('change', onChange);
  };
}

export interface LineChartProps {
  /** Times, in epoch seconds. */
  xs: number[];
  /** One value per time; null where there is none. */
  values: (number | null)[];
  label: string;
  height: number;
  /** Times shown in UTC, else in the browser's timezone. */
  utc: boolean;
  /** A fixed y range (NPS: -100..100); from 0 to the largest value otherwise. */
  range?: [number, number];
  /** Counts: no ticks between whole numbers. */
  whole?: boolean;
  /** Draw a point at each value (a few values); lines only otherwise. */
  points?: boolean;
}

/** One series over time, drawn by uPlot in the theme's colours and redrawn when the theme changes. */
export function LineChart({ xs, values, label, height, utc, range, whole, points = false }: LineChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useStyleSheet('uplot', UPLOT_CSS);
  const colors = useSyncExternalStore(subscribeToTheme, readColors);

  useEffect(() => {
    const element = container.current!;
    const [fg, muted, border, accent] = colors.split('|');
    const axis: uPlot.Axis = { stroke: muted, grid: { stroke: border, width: 1 }, ticks: { stroke: border, width: 1 } };
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height,
        legend: { show: false },
        tzDate: (seconds) => (utc ? uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC') : new Date(seconds * 1000)),
        scales: {
          x: { time: true },
          y: { range: range ? () => range : (_chart, _min, max) => [0, Math.max(1, max ?? 1)] },
        },
        series: [{}, { label, stroke: accent, width: 2, spanGaps: true, points: { show: points } }],
        axes: [
          axis,
          whole
            ? { ...axis, values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')) }
            : axis,
        ],
        cursor: { points: { fill: fg } },
      },
      [xs, values],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [xs, values, label, height, utc, range, whole, points, colors]);

  return <div ref={container} className="chart" />;
}
