import { Shared } from '../../src/render/fragments.js';
import type { Step } from '../../src/site/content-schema.js';
import { Section } from './Section.js';
import { Steps } from './Steps.js';

/** How a claim with the firm goes, in steps with their pictures: rendered once, shared. */
export function HowItWorks({ title, steps }: { title: string; steps: readonly Step[] }) {
  return (
    <Section id="how-title" title={title}>
      <Shared component={Steps} props={{ steps, pictures: true }} />
    </Section>
  );
}
