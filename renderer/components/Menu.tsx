import { useEffect, useRef, type KeyboardEvent } from 'react';

export interface MenuItem {
  label: string;
  run: () => void;
}

/**
 * A popup menu (menu, menuitem): focus starts on the first item, arrows move, Enter or a click runs an item,
 * Escape, Tab or a click elsewhere closes it and focus goes back to `returnFocus`. It opens below its anchor point,
 * or above and to the left when the window has no room there, so that it is never cut off.
 */
export function Menu({
  label,
  items,
  at,
  onClose,
  returnFocus,
}: {
  label: string;
  items: readonly MenuItem[];
  at: { x: number; y: number };
  onClose: () => void;
  returnFocus?: HTMLElement | null | undefined;
}) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const box = menu.getBoundingClientRect();
    if (box.right > window.innerWidth) menu.style.left = `${Math.max(0, window.innerWidth - box.width - 4)}px`;
    if (box.bottom > window.innerHeight) menu.style.top = `${Math.max(0, at.y - box.height)}px`;
    menu.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const away = (event: MouseEvent) => {
      if (!menu.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', away, true);
    return () => document.removeEventListener('mousedown', away, true);
  }, [at, onClose]);

  const close = () => {
    onClose();
    returnFocus?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = (index + 1) % entries.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + entries.length) % entries.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = entries.length - 1;
    else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      close();
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    entries[next]?.focus();
  };

  return (
    <div
      ref={ref}
      className="menu"
      role="menu"
      aria-label={label}
      style={{ left: at.x, top: at.y }}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            close();
            item.run();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
