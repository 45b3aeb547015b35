import type { Topics } from './topics.js';

/** How many words make a phrase: the audit compares pages by their five-word phrases. */
const SHINGLE_WORDS = 5;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** The words of a text, lower-cased, apostrophes kept inside words. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * A word, or the end of a sentence: a stop before a space (but not before a parenthesis, which
 * goes on with its sentence: "(Source: ...)"), or a line (a block ended).
 */
const TOKEN = /([\p{L}\p{N}]+(?:['’][\p{L}]+)*)|[.!?…]+(?=\s|$)(?!\s*\()|\n/gu;

/**
 * Fewer words than this, and a run of text is no sentence (a heading, a name in a list, a
 * distance): the audit counts no relevance for or against a page in it.
 */
export const SENTENCE_WORDS = 6;

/**
 * The distinct five-word phrases of a text as 32-bit hashes, sorted. A text shorter than five
 * words is one phrase. Hashes, not strings: a page has a thousand phrases and a large site
 * millions, and two phrases sharing a hash by chance only nudge a share by a fraction of a
 * percent.
 *
 * With `topics`, a hash's two lowest bits say whether the phrase begins in a sentence (see
 * SENTENCE_WORDS) and whether that sentence is on topic (see inSentence and onTopic): the audit
 * counts a page's own text on topic from its phrases alone, so that an incremental audit, which
 * keeps phrases and not texts, counts as a full one does.
 */
export function shingles(text: string, topics?: Topics): Uint32Array {
  const ws: string[] = [];
  const sentenceOf: number[] = [];
  // By sentence: its words, and whether one is on topic.
  const sentenceWords: number[] = [0];
  const onTopicSentence: boolean[] = [false];
  for (const m of text.toLowerCase().matchAll(TOKEN)) {
    const word = m[1];
    const last = onTopicSentence.length - 1;
    if (word === undefined) {
      // A stop ends the sentence; an empty one (two stops) is not counted again.
      if ((sentenceWords[last] as number) > 0) {
        onTopicSentence.push(false);
        sentenceWords.push(0);
      }
      continue;
    }
    ws.push(word);
    sentenceOf.push(last);
    sentenceWords[last] = (sentenceWords[last] as number) + 1;
    if (topics?.word(word)) onTopicSentence[last] = true;
  }
  if (ws.length === 0) return new Uint32Array(0);
  const hashes = ws.map(hashWord);
  const count = Math.max(1, ws.length - SHINGLE_WORDS + 1);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = 0x811c9dc5;
    for (let k = i; k < Math.min(i + SHINGLE_WORDS, hashes.length); k++) {
      h = Math.imul(h ^ (hashes[k] as number), 0x01000193);
      h ^= h >>> 15;
    }
    const sentence = sentenceOf[i] as number;
    const counted = topics && (sentenceWords[sentence] as number) >= SENTENCE_WORDS ? 2 : 0;
    const topic = counted && onTopicSentence[sentence] ? 1 : 0;
    out[i] = ((fmix(h) & ~3) | counted | topic) >>> 0;
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++)
    if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.slice(0, n);
}

/** Whether a phrase (its hash, from shingles with topics) begins in a sentence. */
export const inSentence = (phrase: number) => (phrase & 2) === 2;

/** Whether a phrase (its hash, from shingles with topics) begins in a sentence on topic. */
export const onTopic = (phrase: number) => (phrase & 1) === 1;

/** FNV-1a over a word's UTF-16 units. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: spreads the bits, so a hash's bins and bands are uniform. */
export function fmix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
