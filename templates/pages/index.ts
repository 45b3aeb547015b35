import type { ReactElement } from 'react';
import type { PageContext } from '../../src/render/context.js';
import type { RouteId } from '../../src/routes.js';
import { AboutPage } from './About.js';
import { AreaPage } from './Area.js';
import { BlogPage, BlogPostPage } from './Blog.js';
import { CityLandingPage } from './CityLanding.js';
import { ClaimTypePage } from './ClaimType.js';
import { ConfirmationPage } from './Confirmation.js';
import { ContactPage } from './Contact.js';
import { FaqPage } from './Faq.js';
import { FormErrorPage } from './FormError.js';
import { HomePage } from './Home.js';
import { HtmlSitemapPage } from './HtmlSitemap.js';
import { LegalPage } from './Legal.js';
import { NotFoundPage } from './NotFound.js';
import { ServicesPage } from './Services.js';

export type Template = (ctx: PageContext) => ReactElement;

/** Route id to template; typed as a full record so a route without a template does not compile. */
export const TEMPLATES: Record<RouteId, Template> = {
  home: HomePage,
  about: AboutPage,
  services: ServicesPage,
  faq: FaqPage,
  contact: ContactPage,
  privacy: LegalPage,
  terms: LegalPage,
  sitemap: HtmlSitemapPage,
  confirmation: ConfirmationPage,
  'form-error': FormErrorPage,
  'not-found': NotFoundPage,
  blog: BlogPage,
  'blog-post': BlogPostPage,
  'city-home': CityLandingPage,
  'city-about': AboutPage,
  'city-services': ServicesPage,
  questionnaire: CityLandingPage,
  'claim-type': ClaimTypePage,
  area: AreaPage,
};
