import type { ReactNode } from 'react';

/**
 * A page section with its heading; `id` names the heading for aria-labelledby. Its ground comes
 * from its place among the main part's bands (site.css), which alternate white and soft.
 */
export function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="section" aria-labelledby={id}>
      <div className="container">
        <h2 id={id}>{title}</h2>
        {intro && <p className="section-intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}
