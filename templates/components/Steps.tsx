import type { Step } from '../../src/site/content-schema.js';

/** Numbered process steps: How It Works, the claim process, the About page's process. */
export function Steps({ steps }: { steps: readonly Step[] }) {
  return (
    <ol className="steps">
      {steps.map((s, i) => (
        <li key={s.title} className="step">
          <span className="step-number" aria-hidden="true">
            {i + 1}
          </span>
          <h3>{s.title}</h3>
          <p>{s.description}</p>
          <ul className="checklist">
            {s.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
