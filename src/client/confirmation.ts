/** The confirmation page: the city from ?city= as text only; Return goes back one step. */
export function initConfirmation(doc: Document): void {
  const city = new URLSearchParams(location.search).get('city')?.trim();
  const slot = doc.querySelector('[data-confirmation-city]');
  if (slot && city) slot.textContent = city.slice(0, 100);
  doc.querySelector('[data-history-back]')?.addEventListener('click', (e) => {
    if (history.length > 1) {
      e.preventDefault();
      history.back();
    }
  });
}
