import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  type AboutContent,
  aboutSchema,
  CANADA_FEE_TERMS,
  cityFaqSchema,
  type FaqContent,
  faqSchema,
  legalPageSchema,
  type ProcessContent,
  postSchema,
  processSchema,
  type QA,
  QUEBEC_DEFAULT,
  type QuebecContent,
  quebecSchema,
  type ServicesContent,
  servicesSchema,
  type Testimonial,
  testimonialsSchema,
} from './content-schema.js';
import type { DataIssue } from './errors.js';
import { splitFrontMatter } from './markdown.js';
import { filesIn, parseRecord, readJson } from './read.js';
import { slugify } from './slug.js';

/** `markdown` is the text after the front matter, rendered by the page that shows it. */
interface MarkdownPage {
  title: string;
  updated: string;
  markdown: string;
}

export interface Post {
  slug: string;
  title: string;
  description: string;
  date: string;
  author: string;
  markdown: string;
}

export interface Content {
  testimonials: Testimonial[];
  faq: FaqContent;
  cityFaq: QA[];
  services: ServicesContent;
  process: ProcessContent;
  about: AboutContent;
  /** How Québec's pages speak of the adjuster and the fee. */
  quebec: QuebecContent;
  privacy: MarkdownPage;
  terms: MarkdownPage;
  /** Newest first. */
  posts: Post[];
}

/**
 * Loads content/*.json, pages/*.md and posts/*.md; problems go to `issues`. A translation
 * (`translated`: its folder, data/fr) gives the same files but the testimonials, which are
 * people's own words and are not translated, and the posts, which are not.
 */
export function loadContent(
  dataDir: string,
  rel: (f: string) => string,
  issues: DataIssue[],
  translated = false,
): Content | undefined {
  const json = <S extends z.ZodType>(name: string, schema: S) => {
    const file = path.join(dataDir, 'content', name);
    return parseRecord(schema, readJson(file, rel, issues), rel(file), null, issues);
  };
  const [testimonials, faq, cityFaq, services, process, about] = [
    translated ? [] : json('testimonials.json', testimonialsSchema),
    json('faq.json', faqSchema),
    json('city-faq.json', cityFaqSchema),
    json('services.json', servicesSchema),
    json('process.json', processSchema),
    json('about.json', aboutSchema),
  ];
  if (services)
    checkServiceOrder(services, rel(path.join(dataDir, 'content/services.json')), issues);
  const quebecFile = path.join(dataDir, 'content', 'quebec.json');
  const quebec = existsSync(quebecFile) ? json('quebec.json', quebecSchema) : QUEBEC_DEFAULT;
  if (process) checkQuebecSteps(process, rel(path.join(dataDir, 'content/process.json')), issues);
  if (cityFaq)
    checkQuebecAnswers(cityFaq, rel(path.join(dataDir, 'content/city-faq.json')), issues);

  const privacy = markdownPage(path.join(dataDir, 'pages/privacy.md'), rel, issues);
  const terms = markdownPage(path.join(dataDir, 'pages/terms.md'), rel, issues);

  const posts: Post[] = [];
  for (const file of translated ? [] : filesIn(path.join(dataDir, 'posts'), '.md')) {
    const slug = path.basename(file, '.md');
    const doc = markdown(file, postSchema, rel, issues, slug);
    if (!doc) continue;
    if (slug !== slugify(slug)) {
      issues.push({
        file: rel(file),
        record: slug,
        field: null,
        message: `file name must be a slug ("${slugify(slug)}.md")`,
      });
      continue;
    }
    posts.push({ slug, ...doc.data, markdown: doc.markdown });
  }
  // ISO dates and slugs: code-point order is their order (localeCompare would start ICU's collator).
  posts.sort((a, b) => compare(b.date, a.date) || compare(a.slug, b.slug));

  if (
    !testimonials ||
    !faq ||
    !cityFaq ||
    !services ||
    !process ||
    !about ||
    !quebec ||
    !privacy ||
    !terms
  )
    return undefined;
  return { testimonials, faq, cityFaq, services, process, about, quebec, privacy, terms, posts };
}

function markdown<S extends z.ZodType>(
  file: string,
  schema: S,
  rel: (f: string) => string,
  issues: DataIssue[],
  record: string | null,
): { data: z.infer<S>; markdown: string } | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    issues.push({ file: rel(file), record, field: null, message: 'file not found' });
    return undefined;
  }
  const split = splitFrontMatter(source);
  if ('error' in split) {
    issues.push({ file: rel(file), record, field: null, message: split.error });
    return undefined;
  }
  const data = parseRecord(schema, split.data, rel(file), record, issues);
  if (data === undefined) return undefined;
  if (!split.body.trim()) {
    issues.push({
      file: rel(file),
      record,
      field: null,
      message: 'has no text after its front matter',
    });
    return undefined;
  }
  return { data, markdown: split.body };
}

function markdownPage(file: string, rel: (f: string) => string, issues: DataIssue[]) {
  const doc = markdown(file, legalPageSchema, rel, issues, null);
  return doc && { ...doc.data, markdown: doc.markdown };
}

/** Claim types and cards are listed in the spec's order, which pages rely on. */
function checkServiceOrder(services: ServicesContent, file: string, issues: DataIssue[]) {
  const order = ['residential', 'commercial', 'fire', 'flood', 'storm', 'other'];
  services.types.forEach((t, i) => {
    if (t.type !== order[i]) {
      issues.push({
        file,
        record: null,
        field: `types.${i}.type`,
        message: `must be "${order[i]}" (the spec's order)`,
      });
    }
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A step quoting the rest of Canada's fee ("5-15%", "only on success") is shown on Québec's pages
 * too, where those terms do not hold: it must say what Québec's pages show instead.
 */
function checkQuebecSteps(process: ProcessContent, file: string, issues: DataIssue[]): void {
  for (const list of ['howItWorks', 'claimProcess', 'aboutProcess'] as const)
    for (const [i, step] of process[list].entries()) {
      const quoted = [step.description, ...step.details].some((t) => CANADA_FEE_TERMS.test(t));
      const description = step.quebec?.description ?? step.description;
      const details = step.quebec?.details ?? step.details;
      if (quoted && [description, ...details].some((t) => CANADA_FEE_TERMS.test(t)))
        issues.push({
          file,
          record: `${list}[${i}]`,
          field: 'quebec',
          message:
            "quotes the rest of Canada's fee; give what Québec's pages say instead (Québec's fee is set in a written contract)",
        });
    }
}

/** The same for a city's questions: an answer quoting the fee needs its Québec answer. */
function checkQuebecAnswers(faq: readonly QA[], file: string, issues: DataIssue[]): void {
  for (const [i, q] of faq.entries())
    if (CANADA_FEE_TERMS.test(q.quebecAnswer ?? q.answer))
      issues.push({
        file,
        record: `[${i}]`,
        field: 'quebecAnswer',
        message:
          "the answer quotes the rest of Canada's fee; give what Québec's pages say instead (Québec's fee is set in a written contract)",
      });
}
