import { fill, type Strings } from '../../src/i18n/catalogue.js';
import { showsAsOf, yearOf } from '../../src/site/fact-dates.js';
import type { Assistance, LocalFact } from '../../src/site/facts-schema.js';
import { Cite } from './LocalFacts.js';
import { Section } from './Section.js';

/**
 * What helps someone with damage in a place act: its programmes, where to report, the permits
 * repairs need, each with the page that says it; in French where the page is (the data gives
 * the French of every fact shown on French pages). Nothing for none.
 */
export function LocalHelp({
  place,
  facts,
  french,
  t,
}: {
  place: string;
  facts: readonly LocalFact[];
  french: boolean;
  t: Strings;
}) {
  if (facts.length === 0) return null;
  return (
    <Section
      id="local-help-title"
      title={fill(t.localHelp.title, { place })}
      intro={fill(t.localHelp.intro, { place })}
    >
      <SourcedFacts facts={facts} french={french} t={t} />
    </Section>
  );
}

/**
 * The province's or territory's disaster financial assistance, shown on its cities' pages and
 * its own, in French where the page is. Nothing for a province the data says nothing of.
 */
export function ProvinceAssistance({
  facts,
  french,
  t,
}: {
  facts: readonly Assistance[];
  french: boolean;
  t: Strings;
}) {
  if (facts.length === 0) return null;
  return (
    <Section
      id="assistance-title"
      title={t.localHelp.assistanceTitle}
      intro={t.localHelp.assistanceIntro}
    >
      <SourcedFacts facts={facts} french={french} t={t} />
    </Section>
  );
}

/**
 * On a city's page, where its province's disaster financial assistance is told: on the
 * province's page, not again on every city's (the same paragraphs on each would make the cities'
 * pages copies of one another).
 */
export function ProvinceAssistanceLink({
  province,
  href,
  t,
}: {
  province: string;
  href: string;
  t: Strings;
}) {
  return (
    <Section id="assistance-title" title={t.localHelp.assistanceTitle}>
      <p>
        <a href={href}>{fill(t.localHelp.assistanceLink, { province })}</a>
      </p>
    </Section>
  );
}

/**
 * Facts with their sources, each in the page's language where it has one, and the year it tells
 * of where it tells a programme, an amount, a deadline or an address (a province's assistance
 * has no topic: it is one).
 */
export function SourcedFacts({
  facts,
  french,
  t,
}: {
  facts: readonly {
    topic?: string;
    text: string;
    fr?: string;
    asOf: string;
    source: Parameters<typeof Cite>[0]['source'];
  }[];
  french: boolean;
  t: Strings;
}) {
  return (
    <ul className="bullet-list fact-list">
      {facts.map((f) => (
        <li key={f.text}>
          {(french && f.fr) || f.text}
          <Cite
            source={f.source}
            asOf={
              showsAsOf({ topic: f.topic ?? 'assistance', text: f.text })
                ? yearOf(f.asOf)
                : undefined
            }
            t={t}
          />
        </li>
      ))}
    </ul>
  );
}
