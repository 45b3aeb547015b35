/**
 * Sites that republish other publishers' pages (Wikipedia mirrors, document-sharing sites, news
 * scrapers). A reader who checks a fact must land at its publisher: a source on one of these, or
 * one that calls itself a copy, is a data error.
 */
const MIRROR_HOSTS: readonly string[] = [
  'piglix.com',
  'wikimili.com',
  'wikisum.wiki',
  'review.clateway.com',
  'pwojczyn.com',
  'theinfolist.com',
  'liquisearch.com',
  'en-academic.com',
  'fr-academic.com',
  'academic.ru',
  'academickids.com',
  'wikiwand.com',
  'wikizero.com',
  'wikizero.org',
  'wikizero.net',
  'wikiz.com',
  'wikiclassic.com',
  'wikiland.org',
  'wikisort.org',
  'wikivisually.com',
  'wikiblah.com',
  'wikial.top',
  'frwiki.wiki',
  'abcdef.wiki',
  'mgwiki.top',
  'zxc.wiki',
  'knowledgr.com',
  'worddisk.com',
  'howlingpixel.com',
  'infogalactic.com',
  'everything.explained.today',
  'encycloreader.org',
  'nearbywiki.org',
  'thefullwiki.org',
  'the-uncensored-wiki.com',
  'classicistranieri.com',
  'wikipedia-on-ipfs.org',
  'ipfs.dweb.link',
  'cloudflare-ipfs.com',
  'kidzsearch.com',
  'werelate.org',
  'fact-index.com',
  'infomutt.com',
  'memim.com',
  'sagapedia.com',
  'self.gutenberg.org',
  'studentb.eu',
  'techsciencenews.com',
  'bdmobi.com',
  'earthspot.org',
  'hmong.es',
  'hmong.in.th',
  'docslib.org',
  'dokumen.tips',
  'doczz.net',
  'docsbay.net',
  'fashiondocbox.com',
  'yumpu.com',
  // Encyclopedia text republished as a travel guide, and an encyclopedia-copy site.
  'asp.net.ph',
  'encyclopediahub.com',
  'shortpedia.org',
];

/** Hosts whose names mark a mirror: an offline Wikipedia reader, a proxy, a distributed copy. */
const MIRROR_MARKS = /(^|[.-])(kiwix|ipfs|zproxy)([.-]|$)/;

/** Words a copy uses of itself, in English and French. */
const COPY_WORDS = /\bcopy at\b|\((?:[^)]*\b)?copy\b|\bcopie (?:à|sur|chez)\b/i;

/** Why a source is not at its publisher's own page, or null when nothing says it is not. */
export function mirrorProblem(source: { publisher: string; url: string }): string | null {
  if (COPY_WORDS.test(source.publisher))
    return 'names a copy: cite the publisher\'s own page (Wikipedia as "Wikipedia" with the article\'s own URL)';
  let host: string;
  try {
    host = new URL(source.url).hostname.toLowerCase();
  } catch {
    return null; // the URL's own check reports it
  }
  if (MIRROR_MARKS.test(host) || MIRROR_HOSTS.some((m) => host === m || host.endsWith(`.${m}`)))
    return `is on ${host}, a site that republishes other pages: cite the publisher's own page`;
  return null;
}
