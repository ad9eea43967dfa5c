import { useInsertionEffect } from 'react';

/**
 * Adds `css` to the document's head as a `<style>` named `name`, the first time a component that
 * needs it renders (the lazy pages' own styles: the main stylesheet stays small). It stays there for
 * the next component that needs it, so it is added once however many render it.
 */
export function useStyleSheet(name: string, css: string): void {
  useInsertionEffect(() => {
    if (document.head.querySelector(`style[data-style-sheet="${name}"]`)) return;
    const style = document.createElement('style');
    style.dataset.styleSheet = name;
    style.textContent = css;
    document.head.append(style);
  }, [name, css]);
}
