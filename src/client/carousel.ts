/**
 * The testimonial strip moves 1 px every 20 ms, pauses on hover and while focus is
 * inside, and jumps back to the start at half its scroll width (the list is rendered twice).
 * With prefers-reduced-motion it stays still and can be scrolled by hand.
 */
export function initCarousel(el: HTMLElement): void {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  let hover = false;
  let focus = false;
  el.addEventListener('mouseenter', () => {
    hover = true;
  });
  el.addEventListener('mouseleave', () => {
    hover = false;
  });
  el.addEventListener('focusin', () => {
    focus = true;
  });
  el.addEventListener('focusout', () => {
    focus = false;
  });
  setInterval(() => {
    if (hover || focus || document.hidden) return;
    if (el.scrollLeft >= el.scrollWidth / 2) el.scrollLeft = 0;
    else el.scrollLeft += 1;
  }, 20);
}
