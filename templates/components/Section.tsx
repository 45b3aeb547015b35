import type { ReactNode } from 'react';

/** A page section with its heading; `id` names the heading for aria-labelledby. */
export function Section({
  id,
  title,
  intro,
  tone,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  tone?: 'soft' | 'plain';
  children: ReactNode;
}) {
  return (
    <section className={`section${tone === 'soft' ? ' section-soft' : ''}`} aria-labelledby={id}>
      <div className="container">
        <h2 id={id}>{title}</h2>
        {intro && <p className="section-intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}
