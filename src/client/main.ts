// Progressive enhancement of the server-rendered markup; every page works without it.
import { initAccordion } from './accordion.js';
import { initAnalytics } from './analytics.js';
import { captureTouch, leadTouches } from './attribution.js';
import { initCitySearch } from './city-search.js';
import { initConfirmation } from './confirmation.js';
import { initMenu } from './menu.js';
import { initNotFound } from './not-found.js';
import { initPhones } from './phones.js';
import { initContactForm, initQuestionnaire } from './questionnaire.js';
import { soon } from './soon.js';

// What a visitor may touch first is ready in the task that runs the script.
initMenu(document);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-questionnaire]'))
  initQuestionnaire(f);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-contact-form]'))
  initContactForm(f);
for (const a of document.querySelectorAll<HTMLElement>('[data-accordion]')) initAccordion(a);
for (const f of document.querySelectorAll<HTMLFormElement>('form[data-city-search]'))
  initCitySearch(f, document);

// Storage is the slow part (the browser opens it on first use: 6-13 ms here, four times that on
// a mid-range phone), so it runs in a task of its own. The landing's touch comes before the
// consent choice, which may keep it as the first one.
soon(() => {
  captureTouch(location, document.referrer);
  initPhones(document, leadTouches().attribution);
  initConfirmation(document);
  void initNotFound(document);
  initAnalytics(document);
});
