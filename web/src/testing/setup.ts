import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { dictionaries } from '../app/texts.ts';
import { addTexts, startI18n } from '../i18n/i18n.ts';
import { queryClient } from '../lib/query.ts';
import { shownToasts } from '../ui/shown-toasts.ts';

// jsdom has no ResizeObserver; the primitives library measures a tooltip's arrow with one. Nothing is laid out
// in jsdom, so an observer that never reports is what a browser would do here too.
if (!('ResizeObserver' in globalThis))
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

// jsdom lays nothing out and has no element scrolling; the tab strip keeps a focused tab clear of its fade with
// these. With nothing laid out there is nothing to scroll, so doing nothing is what a browser would do here too.
const elements = Element.prototype as Partial<Pick<Element, 'scrollTo' | 'scrollIntoView'>>;
elements.scrollTo ??= () => undefined;
elements.scrollIntoView ??= () => undefined;

// Nor pointer capture, which a toast takes while it is swiped; without a layout there is no swipe to capture.
const capturing = Element.prototype as Partial<
  Pick<Element, 'hasPointerCapture' | 'setPointerCapture' | 'releasePointerCapture'>
>;
capturing.hasPointerCapture ??= () => false;
capturing.setPointerCapture ??= () => undefined;
capturing.releasePointerCapture ??= () => undefined;

// A screen's chunk is imported on first visit; on a busy machine that takes more than the default second.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => {
  startI18n('en');
  for (const texts of dictionaries) addTexts(texts);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Each test starts with nothing read: the cache is the app's, not the test's.
  queryClient.clear();
  // The toasts' list outlives a test's render (the library's timers go with it): none carries over.
  shownToasts.list.splice(0);
  vi.unstubAllGlobals();
});
