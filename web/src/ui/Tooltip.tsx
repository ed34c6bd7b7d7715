import type * as RadixTooltipModule from './RadixTooltip.tsx';
import { cloneElement, useRef, useState, type FocusEvent, type PointerEvent, type ReactElement } from 'react';

type Loaded = typeof RadixTooltipModule;
/** The tooltip's chunk once in: every tooltip after the first renders it straight away. */
let loaded: Loaded | undefined;
let loading: Promise<Loaded> | undefined;
const load = () => (loading ??= import('./RadixTooltip.tsx').then((module) => (loaded = module)));

interface TriggerProps {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
}

/**
 * A short explanation shown beside what it explains (RadixTooltip.tsx):
 * on hover and on keyboard focus, gone on Escape or when the pointer or
 * focus leaves, heard as the description of the focused element.
 * `children` is one focusable element (the trigger). Radix's tooltip
 * (about 19 KB) is not in the screen's first load: the trigger renders
 * alone until someone first points at it or focuses it, which fetches
 * the tooltip; it then opens as it would have, the focus kept.
 */
export function Tooltip({ text, children }: { text: string; children: ReactElement<TriggerProps> }) {
  const [handover, setHandover] = useState(loaded && { module: loaded, openNow: false, focusNow: false });
  const trigger = useRef<HTMLElement>(null);
  const pointerOver = useRef(false);
  if (handover) {
    const { module, openNow, focusNow } = handover;
    return (
      <module.RadixTooltip text={text} openNow={openNow} focusNow={focusNow}>
        {children}
      </module.RadixTooltip>
    );
  }
  const wanted = () => {
    void load().then((module) => {
      // Where the user is when it arrives: still pointing at the trigger, or in it.
      const focusNow = trigger.current !== null && trigger.current === document.activeElement;
      setHandover({ module, openNow: pointerOver.current, focusNow });
    });
  };
  // The handlers read and write the refs when the events come, never while rendering.
  // eslint-disable-next-line react-hooks/refs
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      trigger.current = event.currentTarget;
      pointerOver.current = true;
      children.props.onPointerEnter?.(event);
      wanted();
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      pointerOver.current = false;
      children.props.onPointerLeave?.(event);
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      trigger.current = event.currentTarget;
      children.props.onFocus?.(event);
      wanted();
    },
  } as TriggerProps);
}
