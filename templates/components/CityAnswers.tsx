import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { CityAnswers as Answers } from '../../src/site/city-answers.js';
import { SourcedFacts } from './LocalHelp.js';
import { Section } from './Section.js';

/** The four questions, in the order a homeowner with water in the basement asks them. */
const QUESTIONS = ['call', 'offers', 'province', 'permits'] as const;

/**
 * What a homeowner reads first on a city's page: who to call tonight, what the city offers,
 * what the province's disaster assistance covers and excludes and by when to apply, and the
 * permits repairs need; each a short labelled answer from sourced facts, dated where a
 * programme, amount or deadline is told. Shown only where all four are answered.
 */
export function CityAnswers({
  city,
  province,
  answers,
  french,
  t,
}: {
  city: string;
  province: string;
  answers: Answers;
  french: boolean;
  t: Strings;
}) {
  const a = t.cityAnswers;
  const labels = {
    call: a.call,
    offers: fill(a.offers, { city }),
    province: fill(a.province, { province }),
    permits: a.permits,
  };
  return (
    <Section id="answers-title" title={fill(a.title, { city })} intro={a.intro}>
      <dl className="answers">
        {QUESTIONS.map((q) => (
          <div key={q} className="answer" data-answer={q}>
            <dt>{labels[q]}</dt>
            <dd>
              <SourcedFacts facts={answers[q]} french={french} t={t} />
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
