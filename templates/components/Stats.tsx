/** The About page's statistics. */
export function Stats() {
  const stats = [
    { value: '1000+', label: 'Satisfied Clients' },
    { value: '95%', label: 'Success Rate' },
    { value: '24/7', label: 'Emergency Response' },
  ];
  return (
    <section className="stats" aria-label="Our results">
      <div className="container">
        <dl className="stats-grid">
          {stats.map((s) => (
            <div key={s.label} className="stat">
              <dt>{s.label}</dt>
              <dd>{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
