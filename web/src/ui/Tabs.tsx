import * as RadixTabs from '@radix-ui/react-tabs';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

export interface Tab {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs on Radix's, with automatic activation: one tab stop, the
 * arrow keys move between tabs (Home and End to the ends), and only the
 * selected panel is rendered. The selection is the caller's, so it can live
 * in the URL. The strip scrolls rather than wraps; a fade at an edge says
 * more tabs lie that way.
 */
export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: readonly Tab[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const current = tabs.some((tab) => tab.id === selected) ? selected : (tabs[0]?.id ?? '');
  const strip = useRef<HTMLDivElement>(null);
  const more = useMoreToScroll(strip);
  return (
    <RadixTabs.Root value={current} onValueChange={onSelect} className="tabs" activationMode="automatic">
      <RadixTabs.List
        ref={strip}
        aria-label={label}
        className="tab-list"
        data-more={more || undefined}
        onFocus={(event) => {
          // The browser's own scroll on focus leaves a tab just inside the edge, under the fade: once it is done,
          // the first and last tabs take the strip to its ends, the others keep clear of the fade (scroll padding).
          const tab = event.target;
          const list = event.currentTarget;
          if (tab === list) return;
          requestAnimationFrame(() => {
            if (tab === list.firstElementChild) list.scrollTo({ left: 0 });
            else if (tab === list.lastElementChild) list.scrollTo({ left: list.scrollWidth });
            else tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
          });
        }}
      >
        {tabs.map((tab) => (
          <RadixTabs.Trigger key={tab.id} value={tab.id} className="tab">
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.id} value={tab.id} className="tab-panel">
          {tab.panel}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}

/** Which ends of a sideways-scrolling strip hide tabs: 'start', 'end', both, or '' when it all shows. */
function useMoreToScroll(strip: RefObject<HTMLElement | null>): string {
  const [more, setMore] = useState('');
  useEffect(() => {
    const element = strip.current;
    if (!element) return;
    const measure = () => {
      // scrollLeft is negative when the strip runs right to left; a pixel of rounding is not more.
      const start = Math.abs(element.scrollLeft) > 1;
      const end = Math.abs(element.scrollLeft) + element.clientWidth < element.scrollWidth - 1;
      setMore([start && 'start', end && 'end'].filter(Boolean).join(' '));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    // jsdom has no ResizeObserver; there the strip never overflows anyway.
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resize?.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [strip]);
  return more;
}
