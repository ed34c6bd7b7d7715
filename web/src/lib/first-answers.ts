/**
 * What the server put in the page it served (services/api's web-app plugin):
 * the answers the first screen would otherwise ask for one after another
 * (the session with its CSRF token, then the balance), so the dashboard
 * can render from its first script run. Read once: the element is removed,
 * so nothing later mistakes them for current. Each is checked against its
 * contract by the feature that takes it; anything unreadable is no answer.
 */
export interface FirstAnswers {
  session?: unknown;
  balance?: unknown;
}

export function takeFirstAnswers(element: Element | null): FirstAnswers {
  if (!element) return {};
  element.remove();
  try {
    const answers: unknown = JSON.parse(element.textContent);
    return typeof answers === 'object' && answers !== null ? answers : {};
  } catch {
    return {};
  }
}
