import { describe, expect, it } from 'vitest';
import { ANALYTICS_RANGES, toChartData } from '../../../src/features/flags/analytics/chart';
import { analyticsPath, analyticsWindow } from '../../../src/features/flags/analytics/api';
import { flagKeys } from '../../../src/features/flags/api';

describe('analytics', () => {
  it('offers the ranges from 30 minutes to 7 days', () => {
    expect(ANALYTICS_RANGES.map((range) => range.minutes)).toEqual([30, 60, 240, 720, 1440, 10080]);
  });

  it('ends the window at the start of the next minute, in UTC', () => {
    const now = Date.UTC(2024, 0, 2, 10, 15, 42, 500);
    expect(analyticsWindow(30, now)).toEqual({ from: '2024-01-02 09:46:00', to: '2024-01-02 10:16:00' });
    expect(analyticsWindow(7 * 24 * 60, now)).toEqual({ from: '2023-12-26 10:16:00', to: '2024-01-02 10:16:00' });
    // On a whole minute, the current minute is still inside the window.
    expect(analyticsWindow(60, Date.UTC(2024, 0, 2, 10, 15)).to).toBe('2024-01-02 10:16:00');
  });

  it('builds the internal analytics path with encoded keys and query', () => {
    expect(analyticsPath('my ns', 'flag/1', 60, Date.UTC(2024, 0, 2, 10, 15, 42))).toBe(
      '/internal/v1/analytics/namespaces/my%20ns/flags/flag%2F1?from=2024-01-02+09%3A16%3A00&to=2024-01-02+10%3A16%3A00',
    );
  });

  it('turns the series into Unix seconds and numbers, reading zone-less timestamps as UTC', () => {
    expect(toChartData({ timestamps: ['2024-01-02T10:15:00Z', '2024-01-02 10:16:00'], values: [3, 0] })).toEqual([
      [Date.UTC(2024, 0, 2, 10, 15) / 1000, Date.UTC(2024, 0, 2, 10, 16) / 1000],
      [3, 0],
    ]);
  });

  it('keys series under their flag', () => {
    const analytics = flagKeys.analytics('', 'default', 'f');
    expect(flagKeys.series('', 'default', 'f', 60).slice(0, analytics.length)).toEqual([...analytics]);
  });
});
