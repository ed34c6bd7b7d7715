/**
 * What went wrong, in one line: the error's message, and for an error of
 * PostgreSQL its SQLSTATE, where in the statement's text it failed and, in
 * a function or DO block, the line (pg's DatabaseError carries all three).
 */
export function failureReason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const { code, position, where } = cause as { code?: unknown; position?: unknown; where?: unknown };
  if (typeof code !== 'string') return cause.message;
  const details = [`SQLSTATE ${code}`];
  if (typeof position === 'string') details.push(`at character ${position}`);
  if (typeof where === 'string') details.push(where);
  return `${cause.message} (${details.join(', ')})`;
}
