import { useEffect, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';

/**
 * A day-by-day line chart with uPlot, in the theme's colours (as the flag analytics chart: a canvas cannot
 * read CSS variables, so they are read here and the chart is drawn again when the theme changes).
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

function readColors(): string {
  const style = getComputedStyle(document.documentElement);
  return THEME_VARIABLES.map((name) => style.getPropertyValue(name).trim()).join('|');
}

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

const HEIGHT = 220;

/** One series over UTC days (`YYYY-MM-DD`); null where the day has no value. */
export function TrendChart({
  days,
  values,
  label,
  range,
  whole,
}: {
  days: string[];
  values: (number | null)[];
  label: string;
  /** A fixed y range (NPS: -100..100); from 0 to the largest value otherwise. */
  range?: [number, number];
  /** Counts: no ticks between whole numbers. */
  whole?: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  const colors = useSyncExternalStore(subscribeToTheme, readColors);

  useEffect(() => {
    const element = container.current!;
    const [fg, muted, border, accent] = colors.split('|');
    const axis: uPlot.Axis = { stroke: muted, grid: { stroke: border, width: 1 }, ticks: { stroke: border, width: 1 } };
    const xs = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: {
          x: { time: true },
          y: { range: range ? () => range : (_chart, _min, max) => [0, Math.max(1, max ?? 1)] },
        },
        series: [{}, { label, stroke: accent, width: 2, spanGaps: true, points: { show: days.length <= 62 } }],
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
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, values, label, range, whole, colors]);

  return (
    <>
      <style href="uplot" precedence="default">
        {UPLOT_CSS}
      </style>
      <div ref={container} className="chart" />
    </>
  );
}
