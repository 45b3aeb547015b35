import { describe, expect, it } from 'vitest';
import { resolveNotFound, underFolder } from '../../src/client/not-found.js';

const cities = [
  { slug: 'canada', population: 38250000 },
  { slug: 'toronto', population: 2794356 },
  { slug: 'vancouver', population: 662248 },
  { slug: 'north-vancouver', population: 88168 },
  { slug: 'greater-sudbury', population: 166004 },
];

describe('the not-found page decision', () => {
  it('sends a near-miss city to the same sub-path under the found city', () => {
    expect(resolveNotFound('/torontoo/public-adjusters', cities)).toEqual({
      redirect: '/toronto/public-adjusters/',
    });
    expect(resolveNotFound('/Sudbury', cities)).toEqual({ redirect: '/greater-sudbury/' });
    expect(resolveNotFound('/van/about', cities)).toEqual({ redirect: '/vancouver/about/' });
    expect(resolveNotFound('/St%20Toronto/services', cities)).toEqual({
      redirect: '/toronto/services/',
    });
  });

  it('sends a city mistyped by a letter or two to its page', () => {
    expect(resolveNotFound('/torono/', cities)).toEqual({ redirect: '/toronto/' });
    expect(resolveNotFound('/tornoto/about', cities)).toEqual({ redirect: '/toronto/about/' });
    expect(resolveNotFound('/vancuver/', cities)).toEqual({ redirect: '/vancouver/' });
  });

  it('sends a damage or a claim type mistyped to the nearest claim page', () => {
    expect(resolveNotFound('/toronto/water-damage/', cities)).toEqual({
      redirect: '/toronto/flood-damage-claims/',
    });
    expect(resolveNotFound('/toronto/wind-damage-claims', cities)).toEqual({
      redirect: '/toronto/storm-damage-claims/',
    });
    expect(resolveNotFound('/toronto/theft', cities)).toEqual({
      redirect: '/toronto/other-damage-claims/',
    });
    expect(resolveNotFound('/toronto/flod-damage-claims', cities)).toEqual({
      redirect: '/toronto/flood-damage-claims/',
    });
    expect(resolveNotFound('/torono/residental-claims', cities)).toEqual({
      redirect: '/toronto/residential-claims/',
    });
  });

  it('says Page not found for an address that is no city page', () => {
    expect(resolveNotFound('/blog/no-such-post/', cities)).toEqual({ screen: 'page' });
    expect(resolveNotFound('/faq/nothing', cities)).toEqual({ screen: 'page' });
    expect(resolveNotFound('/atlantis/nowhere', cities)).toEqual({ screen: 'page' });
    expect(resolveNotFound('/atlantis/a/b', cities)).toEqual({ screen: 'page' });
    // Even when the city index could not be loaded.
    expect(resolveNotFound('/blog/no-such-post/', [])).toEqual({ screen: 'page' });
  });

  it('sends a claim type mistyped or cut short to the claim type page', () => {
    expect(resolveNotFound('/toronto/fire-damage', cities)).toEqual({
      redirect: '/toronto/fire-damage-claims/',
    });
    expect(resolveNotFound('/toronto/flood', cities)).toEqual({
      redirect: '/toronto/flood-damage-claims/',
    });
    // The spec's own rule: the type is what is left without -damage-claims or -claims.
    expect(resolveNotFound('/toronto/storm-claims', cities)).toEqual({
      redirect: '/toronto/storm-damage-claims/',
    });
    expect(resolveNotFound('/torontoo/residential-claim', cities)).toEqual({
      redirect: '/toronto/residential-claims/',
    });
    expect(resolveNotFound('/atlantis/fire-damage', cities)).toEqual({
      redirect: '/canada/fire-damage-claims/',
    });
  });

  it('shows Page Not Found for an unknown claim type under a known city', () => {
    expect(resolveNotFound('/toronto/meteor-damage-claims', cities)).toEqual({ screen: 'service' });
    expect(resolveNotFound('/atlantis/meteor-claims', cities)).toEqual({ screen: 'service' });
  });

  it('sends an unknown page under a known city to the city, never in a loop', () => {
    expect(resolveNotFound('/toronto/nowhere', cities)).toEqual({ redirect: '/toronto/' });
    expect(resolveNotFound('/canada/atlantis', cities)).toEqual({ redirect: '/canada/' });
  });

  it('falls back to canada on the pages that use the national default', () => {
    expect(resolveNotFound('/atlantis/services', cities)).toEqual({
      redirect: '/canada/services/',
    });
    expect(resolveNotFound('/atlantis/flood-damage-claims', cities)).toEqual({
      redirect: '/canada/flood-damage-claims/',
    });
  });

  it('shows the plain text on top-adjusters and claims-offices, City Not Found elsewhere', () => {
    expect(resolveNotFound('/atlantis/top-adjusters', cities)).toEqual({ screen: 'plain' });
    expect(resolveNotFound('/atlantis/claims-offices', cities)).toEqual({ screen: 'plain' });
    expect(resolveNotFound('/atlantis/public-adjusters', cities)).toEqual({
      screen: 'city',
      typed: 'atlantis',
    });
    expect(resolveNotFound('/atlantis', cities)).toEqual({ screen: 'city', typed: 'atlantis' });
    expect(resolveNotFound('/%E0%A4%A', cities)).toEqual({ screen: 'city', typed: '%E0%A4%A' });
  });

  it('shows City Not Found when the index could not be loaded', () => {
    expect(resolveNotFound('/torontoo/public-adjusters', [])).toEqual({
      screen: 'city',
      typed: 'torontoo',
    });
  });
});

describe('the not-found page of a site served from a folder', () => {
  const french = [...cities, { slug: 'montreal', population: 1762949, fr: true }];

  it('reads the path without the folder and sends the visitor under it', () => {
    expect(underFolder('/claims/torontoo/public-adjusters', '/claims', french)).toEqual({
      redirect: '/claims/toronto/public-adjusters/',
    });
    expect(underFolder('/claims/fr/montreal/nulle-part/', '/claims', french)).toEqual({
      redirect: '/claims/fr/montreal/',
    });
    expect(underFolder('/claims/atlantis/', '/claims', french)).toEqual({
      screen: 'city',
      typed: 'atlantis',
    });
  });

  it('is the site at the root when there is no folder', () => {
    expect(underFolder('/torontoo/about', '', french)).toEqual({ redirect: '/toronto/about/' });
  });
});
