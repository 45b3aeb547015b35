export interface Crumb {
  name: string;
  path: string;
}

/** Visible breadcrumb trail; the last crumb is the current page. */
export function Breadcrumbs({ trail }: { trail: readonly Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol className="container">
        {trail.map((c, i) => (
          <li key={c.path}>
            {i === trail.length - 1 ? (
              <span aria-current="page">{c.name}</span>
            ) : (
              <a href={c.path}>{c.name}</a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
