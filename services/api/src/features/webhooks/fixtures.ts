/** A valid webhook modal form; override any field. */
export const hook = (overrides: Record<string, unknown> = {}) => ({ state: 'enabled', url: 'https://hooks.example.com/peeks', events: ['purchase', 'deposit-cleared'], ...overrides });
