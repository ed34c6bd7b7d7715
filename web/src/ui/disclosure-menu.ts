import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/**
 * A button that shows and hides a menu below it (the disclosure pattern):
 * a click elsewhere closes it, and Escape closes it and puts the focus back
 * on its button. Spread `rootProps` on the element holding both,
 * `buttonProps` on the button and `menuProps` on the menu.
 */
export function useDisclosureMenu() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return {
    open,
    close: () => {
      setOpen(false);
    },
    focusButton: () => button.current?.focus(),
    rootProps: {
      ref: root,
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      },
    },
    buttonProps: {
      ref: button,
      type: 'button' as const,
      'aria-expanded': open,
      'aria-controls': menuId,
      onClick: () => {
        setOpen(!open);
      },
    },
    menuProps: { id: menuId, hidden: !open },
  };
}
