import type { ReactNode } from 'react';

export interface Detail {
  label: ReactNode;
  /** What is shown; null or empty shows `missing`. */
  value: ReactNode;
  /** A link or button beside the value, such as Update. */
  action?: ReactNode;
}

/**
 * Facts about one thing as a description list: the label muted above or
 * beside its value (two columns from 40 rem), rows divided by a line, long
 * values wrapping inside their column, never past the card.
 */
export function DetailList({
  details,
  missing = '—',
  title,
}: {
  details: readonly Detail[];
  missing?: ReactNode;
  /** A subheading for a group of facts within a card. */
  title?: ReactNode;
}) {
  return (
    <div className="detail-group">
      {title && <h3 className="detail-title">{title}</h3>}
      <dl className="detail-list">
        {details.map((detail, index) => (
          <div key={index} className="detail-row">
            <dt>{detail.label}</dt>
            <dd>
              <span className="detail-value">
                {detail.value === null || detail.value === '' ? missing : detail.value}
              </span>
              {detail.action}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
