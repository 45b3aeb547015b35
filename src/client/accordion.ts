/** At most one answer open per group; clicking the open question closes it. */
export function initAccordion(group: HTMLElement): void {
  const buttons = Array.from(group.querySelectorAll<HTMLButtonElement>('[data-accordion-button]'));
  const panel = (b: HTMLButtonElement) =>
    document.getElementById(b.getAttribute('aria-controls') ?? '');
  const set = (b: HTMLButtonElement, open: boolean) => {
    b.setAttribute('aria-expanded', String(open));
    const p = panel(b);
    if (p) p.hidden = !open;
  };
  // Rendered open so the page reads fully without the script; the stylesheet hides the answers
  // while it is on its way (the `js` class), and `hidden` takes over once it runs.
  for (const b of buttons) {
    set(b, false);
    b.addEventListener('click', () => {
      const open = b.getAttribute('aria-expanded') === 'true';
      for (const other of buttons) set(other, false);
      set(b, !open);
    });
  }
  group.classList.add('is-ready');
}
