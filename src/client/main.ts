// Progressive enhancement of the server-rendered markup; every page works without it.
import { initAccordion } from './accordion.js';
import { initAnalytics } from './analytics.js';
import { captureTouch } from './attribution.js';
import { initCarousel } from './carousel.js';
import { initCitySearch } from './city-search.js';
import { initConfirmation } from './confirmation.js';
import { initMenu } from './menu.js';
import { initNotFound } from './not-found.js';
import { initContactForm, initQuestionnaire } from './questionnaire.js';

// First: the landing's touch, which the consent choice below may keep as the first one.
captureTouch(location, document.referrer);
initMenu(document);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-questionnaire]'))
  initQuestionnaire(f);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-contact-form]'))
  initContactForm(f);
for (const a of document.querySelectorAll<HTMLElement>('[data-accordion]')) initAccordion(a);
for (const c of document.querySelectorAll<HTMLElement>('[data-carousel]'))
  initCarousel(
    c,
    document.querySelector<HTMLButtonElement>(`[data-carousel-toggle][aria-controls="${c.id}"]`),
  );
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-city-search]'))
  initCitySearch(f, document);
initConfirmation(document);
void initNotFound(document);
initAnalytics(document);
