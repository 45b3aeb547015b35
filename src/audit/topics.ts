import * as z from 'zod';
import { hash } from '../hash.js';
import { SENTENCE_WORDS } from './shingles.js';

const stem = z
  .string()
  .regex(
    /^[\p{Ll}'’-]{3,}$/u,
    'must be a stem of three or more lower-case letters (a word begins with it)',
  );

/**
 * data/relevance.json: the stems of the words that make a sentence one about damage, claims,
 * insurance, risk or recovery, in English and in French. A word is on topic when it begins with
 * a stem ("flood" takes flooding and floodplain); a sentence, when one of its words is.
 */
export const relevanceSchema = z
  .strictObject({
    en: z.array(stem).min(1, 'must list at least one stem'),
    fr: z.array(stem).min(1, 'must list at least one stem'),
  })
  .superRefine((lexicon, ctx) => {
    for (const lang of ['en', 'fr'] as const) {
      const seen = new Set<string>();
      lexicon[lang].forEach((s, i) => {
        if (seen.has(s))
          ctx.addIssue({ code: 'custom', path: [lang, i], message: `"${s}" is listed twice` });
        seen.add(s);
      });
    }
  });

type Relevance = z.infer<typeof relevanceSchema>;

/** A French article or pronoun elided before the word: l'inondation is an inondation. */
const ELISION = /^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)['’]/;

/** Says which sentences are on topic; `digest` names the lexicon, for stored audits. */
export class Topics {
  private readonly stems: readonly string[];
  readonly digest: string;

  constructor(lexicon: Relevance) {
    this.stems = [...new Set([...lexicon.en, ...lexicon.fr])].sort();
    this.digest = hash(this.stems);
  }

  /** Whether a word (lower-cased) begins with a stem, after a French elision (l', d', qu'). */
  word(word: string): boolean {
    const bare = word.replace(ELISION, '');
    for (const s of this.stems) if (bare.startsWith(s)) return true;
    return false;
  }
}

/**
 * The share of a text's sentences (of SENTENCE_WORDS words or more) that are on topic, as the
 * audit counts them; 0 for a text of no sentence.
 */
export function onTopicShare(text: string, topics: Topics): number {
  let sentences = 0;
  let onTopic = 0;
  for (const sentence of text.split(/(?<=[.!?…])\s+(?!\()/)) {
    const words = sentence.toLowerCase().match(WORD) ?? [];
    if (words.length < SENTENCE_WORDS) continue;
    sentences++;
    if (words.some((w) => topics.word(w))) onTopic++;
  }
  return sentences === 0 ? 0 : onTopic / sentences;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
