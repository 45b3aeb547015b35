import type { Step } from '../../src/site/content-schema.js';
import { Illustration, type Scene } from './Illustration.js';

/** How It Works' three steps, each with its picture: the adjuster's visit, the file, the settlement. */
const HOW_IT_WORKS: readonly Scene[] = ['adjuster', 'documents', 'handshake'];

/** Numbered process steps: How It Works, the claim process, the About page's process. */
export function Steps({ steps, pictures }: { steps: readonly Step[]; pictures?: boolean }) {
  return (
    <ol className="steps">
      {steps.map((s, i) => {
        const scene = pictures ? HOW_IT_WORKS[i] : undefined;
        return (
          <li key={s.title} className="step">
            {scene && (
              <div className="step-art">
                <Illustration scene={scene} />
              </div>
            )}
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
        );
      })}
    </ol>
  );
}
