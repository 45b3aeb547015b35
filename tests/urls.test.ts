import { describe, expect, it } from 'vitest';
import {
  absoluteUrl,
  assetFile,
  fileForPath,
  HASHED_ASSET,
  links,
  pagePath,
  pathForFile,
} from '../src/urls.js';
import { phoneOf } from './helpers.js';

describe('the URL module', () => {
  it('addresses folder pages with a trailing slash and the home page as /', () => {
    expect(pagePath()).toBe('/');
    expect(links.home).toBe('/');
    expect(links.page('faq')).toBe('/faq/');
    expect(links.city('toronto')).toBe('/toronto/');
    expect(links.city({ slug: 'toronto' })).toBe('/toronto/');
    expect(links.cityPage({ slug: 'toronto' }, { slug: 'leslieville' })).toBe(
      '/toronto/leslieville/',
    );
    expect(links.cityPage('canada', 'public-adjusters')).toBe('/canada/public-adjusters/');
    expect(links.post('after-a-house-fire')).toBe('/blog/after-a-house-fire/');
  });

  it('maps every path to its file and back', () => {
    const cases: Array<[string, string]> = [
      ['/', 'index.html'],
      ['/faq/', 'faq/index.html'],
      ['/toronto/fire-damage-claims/', 'toronto/fire-damage-claims/index.html'],
      ['/404.html', '404.html'],
      ['/sitemap.xml', 'sitemap.xml'],
      ['/assets/app.0123456789.js', 'assets/app.0123456789.js'],
    ];
    for (const [p, file] of cases) {
      expect(fileForPath(p)).toBe(file);
      expect(pathForFile(file)).toBe(p);
    }
  });

  it('makes absolute URLs from a base URL with or without its slash', () => {
    expect(absoluteUrl('https://www.claimright.ca', '/')).toBe('https://www.claimright.ca/');
    expect(absoluteUrl('https://www.claimright.ca/', '/faq/')).toBe(
      'https://www.claimright.ca/faq/',
    );
  });

  it('adds a query, leaving empty values out and encoding the rest', () => {
    expect(links.withQuery('/confirmation/', { city: 'Trois-Rivières & Co' })).toBe(
      '/confirmation/?city=Trois-Rivi%C3%A8res+%26+Co',
    );
    expect(links.withQuery('/confirmation/', { city: '' })).toBe('/confirmation/');
    expect(links.withQuery('/form-error/', { status: 429 })).toBe('/form-error/?status=429');
  });

  it('names hashed assets one way and recognises only that way', () => {
    const file = assetFile('app', 'abcdef0123456789', 'js');
    expect(file).toBe('assets/app.abcdef0123.js');
    expect(HASHED_ASSET.test(pathForFile(file))).toBe(true);
    expect(HASHED_ASSET.test('/assets/app.js')).toBe(false);
    expect(HASHED_ASSET.test('/favicon.svg')).toBe(false);
    expect(HASHED_ASSET.test('/x/assets/app.abcdef0123.js')).toBe(false);
  });

  it('writes phone and e-mail links', () => {
    expect(links.tel(phoneOf('1-888-339-9809'))).toBe('tel:+18883399809');
    expect(links.mailto('help@claimright.ca')).toBe('mailto:help@claimright.ca');
  });
});
