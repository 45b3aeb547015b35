import type { QA } from '../../src/site/content-schema.js';

/**
 * FAQ accordion: each question is a button controlling its answer. Answers are visible until
 * the browser script collapses them, so the page reads fully without JavaScript.
 */
export function Accordion({ id, items }: { id: string; items: readonly QA[] }) {
  return (
    <div className="accordion" data-accordion="">
      {items.map((item, i) => {
        const panel = `${id}-a${i + 1}`;
        return (
          <div className="accordion-item" key={item.question}>
            <h3 className="accordion-heading">
              <button
                type="button"
                id={`${id}-q${i + 1}`}
                aria-expanded="true"
                aria-controls={panel}
                data-accordion-button=""
              >
                {item.question}
              </button>
            </h3>
            <section id={panel} className="accordion-panel" aria-labelledby={`${id}-q${i + 1}`}>
              <p>{item.answer}</p>
            </section>
          </div>
        );
      })}
    </div>
  );
}
