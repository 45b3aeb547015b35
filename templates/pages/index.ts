import type { RouteId } from '../../src/routes.js';
import {
  CityPage,
  ConfirmationPage,
  HomePage,
  HtmlSitemapPage,
  NotFoundPage,
  SitePage,
  type Template,
} from './simple.js';

export type { Template };

/** Route id to template; typed as a full record so a route without a template does not compile. */
export const TEMPLATES: Record<RouteId, Template> = {
  home: HomePage,
  about: SitePage,
  services: SitePage,
  faq: SitePage,
  contact: SitePage,
  privacy: SitePage,
  terms: SitePage,
  sitemap: HtmlSitemapPage,
  confirmation: ConfirmationPage,
  'not-found': NotFoundPage,
  'city-home': CityPage,
  'city-about': CityPage,
  'city-services': CityPage,
  questionnaire: CityPage,
  'claim-type': CityPage,
  area: CityPage,
};
