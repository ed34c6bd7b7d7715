import { proxy } from 'valtio';

/** Toast interval (spec §9): each toast shows for 3 seconds, and longer while the pointer or the focus is on it. */
export const TOAST_MS = 3000;

interface ToastMessage {
  id: number;
  text: string;
  tone: 'success' | 'error';
}

/** The toasts showing: toast() adds one; its end (the time, Escape, a swipe, Dismiss) takes it out. */
export const shownToasts = proxy<{ list: ToastMessage[] }>({ list: [] });
let nextId = 1;

/** Shows a short message, such as the spec's 'Password Updated successfully.', then lets it go. */
export function toast(text: string, tone: ToastMessage['tone'] = 'success') {
  shownToasts.list.push({ id: nextId++, text, tone });
}

export function dismissToast(id: number) {
  const index = shownToasts.list.findIndex((each) => each.id === id);
  if (index >= 0) shownToasts.list.splice(index, 1);
}
