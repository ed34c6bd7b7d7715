import { proxy, useSnapshot } from 'valtio';

/** Toast interval (spec §9): each toast shows for 3 seconds. */
export const TOAST_MS = 3000;

interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'error';
}

const toasts = proxy<{ list: Toast[] }>({ list: [] });
let nextId = 1;

/** Shows a short message, such as the spec's 'Password Updated successfully.', then lets it go. */
export function toast(text: string, tone: Toast['tone'] = 'success') {
  const id = nextId++;
  toasts.list.push({ id, text, tone });
  setTimeout(() => {
    dismiss(id);
  }, TOAST_MS);
}

function dismiss(id: number) {
  const index = toasts.list.findIndex((each) => each.id === id);
  if (index >= 0) toasts.list.splice(index, 1);
}

/** Mounted once by the app; screen readers hear each toast through the live region. */
export function Toasts() {
  const { list } = useSnapshot(toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {list.map((each) => (
        <div key={each.id} className={`toast toast-${each.tone}`}>
          {each.text}
        </div>
      ))}
    </div>
  );
}
