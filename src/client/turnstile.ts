/** Cloudflare Turnstile, when the site has a site key (<html data-turnstile>). */
interface TurnstileApi {
  render(el: HTMLElement, options: Record<string, unknown>): string;
  reset(widget: string): void;
}

let loading: Promise<TurnstileApi | null> | undefined;

/** Cloudflare's script, loaded once, for explicit rendering. */
const load = () =>
  (loading ??= new Promise((resolve) => {
    const s = document.createElement('script');
    s.src = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
    s.async = true;
    s.onload = () => resolve((window as unknown as { turnstile?: TurnstileApi }).turnstile ?? null);
    s.onerror = () => resolve(null);
    document.head.appendChild(s);
  }));

export interface FormCheck {
  /** Resolves once the widget has given its token (or after 10 s). */
  ready(): Promise<void>;
  /** A token is good once: after a failed send, the widget makes a new one. */
  reset(): void;
}

/**
 * Puts the widget in the form's slot when the visitor first enters the form (so nothing of
 * Cloudflare loads for a visitor who never does); it adds the token to the form itself, as
 * `cf-turnstile-response`.
 */
export function initTurnstile(form: HTMLFormElement): FormCheck {
  const key = document.documentElement.dataset.turnstile;
  const slot = form.querySelector<HTMLElement>('[data-turnstile-slot]');
  if (!key || !slot) return { ready: async () => {}, reset() {} };
  let api: TurnstileApi | null = null;
  let widget: string | undefined;
  const start = async () => {
    api = await load();
    if (api && widget === undefined) widget = api.render(slot, { sitekey: key });
  };
  form.addEventListener('focusin', () => void start(), { once: true });
  const token = () =>
    form.querySelector<HTMLInputElement>('[name="cf-turnstile-response"]')?.value ?? '';
  return {
    async ready() {
      await start();
      for (let i = 0; i < 40 && !token(); i++) await new Promise((r) => setTimeout(r, 250));
    },
    reset() {
      if (api && widget !== undefined) api.reset(widget);
    },
  };
}
