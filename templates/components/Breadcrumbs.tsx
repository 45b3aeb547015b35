import type { Strings } from '../../src/i18n/catalogue.js';

export interface Crumb {
  name: string;
  /** The page's path: its JSON-LD URL is made of it. */
  path: string;
  /** The link to it (under the site's folder). */
  href: string;
}

/** Visible breadcrumb trail; the last crumb is the current page. */
export function Breadcrumbs({ trail, t }: { trail: readonly Crumb[]; t: Strings }) {
  return (
    <nav className="breadcrumbs" aria-label={t.breadcrumbs.label}>
      <ol className="container">
        {trail.map((c, i) => (
          <li key={c.path}>
            {i === trail.length - 1 ? (
              <span aria-current="page">{c.name}</span>
            ) : (
              <a href={c.href}>{c.name}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
