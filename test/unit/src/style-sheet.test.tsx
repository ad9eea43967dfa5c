import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useStyleSheet } from '../../../src/lib/style-sheet';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Styled({ name, css }: { name: string; css: string }) {
  useStyleSheet(name, css);
  return <p>styled</p>;
}

const sheets = (name: string) => [...document.head.querySelectorAll(`style[data-style-sheet="${name}"]`)];

describe('useStyleSheet', () => {
  it('adds a sheet to the head once however many components render it, and keeps it after they unmount', () => {
    const root = createRoot(document.createElement('div'));
    act(() =>
      root.render(
        <>
          <Styled name="charts" css=".chart{color:red}" />
          <Styled name="charts" css=".chart{color:red}" />
          <Styled name="results" css=".results{margin:0}" />
        </>,
      ),
    );
    expect(sheets('charts').map((style) => style.textContent)).toEqual(['.chart{color:red}']);
    expect(sheets('results').map((style) => style.textContent)).toEqual(['.results{margin:0}']);

    act(() => root.unmount());
    expect(sheets('charts')).toHaveLength(1);

    act(() => createRoot(document.createElement('div')).render(<Styled name="charts" css=".chart{color:red}" />));
    expect(sheets('charts')).toHaveLength(1);
  });
});
