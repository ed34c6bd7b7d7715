/** The four wallet actions' glyphs: decorative, 20 px strokes in the text's colour; the words beside them name the action. */
const PATHS = {
  add: 'M12 5v14M5 12h14',
  send: 'M7 17 17 7M9 7h8v8',
  pay: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2M18 14h2',
  withdraw: 'M12 4v12M6 10l6 6 6-6M5 20h14',
} as const;

export function ActionIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg
      className="action-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
