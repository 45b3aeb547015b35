import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { SiteSettings } from '../../src/site/schema.js';

/**
 * The label every item still marked as a sample carries on the page (a testimonial, a figure, a
 * badge), so that nothing sample is ever read as real: "Sample: replace before publishing".
 */
export function SampleLabel({ t }: { t: Strings }) {
  return <span className="sample-label">{t.sample.label}</span>;
}

/**
 * The same for the settings that still hold the bundled samples (the name, the number, the
 * addresses): they are on every page, so every page says so, once, at its top. Nothing once
 * site.json marks none.
 */
export function SampleSettings({
  sample = [],
  t,
}: {
  sample?: SiteSettings['sample'];
  t: Strings;
}) {
  if (sample.length === 0) return null;
  const names = sample.map((name) => t.sample[name]);
  const { listSeparator, listLastSeparator } = t.localFacts;
  const fields =
    names.length > 1
      ? `${names.slice(0, -1).join(listSeparator)}${listLastSeparator}${names.at(-1)}`
      : (names[0] ?? '');
  return (
    <div className="sample-banner">
      <p className="container">
        <SampleLabel t={t} /> {fill(t.sample.settings, { fields })}
      </p>
    </div>
  );
}
